// api/dashboard/ (feature 'dashboard-figures', docs/dashboard.md#server-side-figures): every figure
// of the dashboard for a hub, a timeframe and the viewer's time zone, equal to what the console
// computes from api/get_status/'s records in a browser of that zone. Any signed-in console user,
// as api/get_status/. Never cached: the figures are counted at each call.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DashboardQuery, DashboardStats } from '@veritas/shared/domain';
import { dashboardFigures } from '../dashboard/figures';

export interface DashboardRouteOptions {
  /** The server's clock: "today" is the day of its now in the viewer's zone. */
  clock: () => Date;
}

/**
 * At most `limit` calls count at once; the others wait their turn, each after a turn of the event
 * loop, so other requests are read and served between them.
 */
class Turns {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      await nextTurn();
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

export const dashboardRoutes: FastifyPluginAsyncTypebox<DashboardRouteOptions> = async (app, { clock }) => {
  // SQLite answers on the event loop, one query at a time: a call holds it for its whole read
  // (some 15 ms for Last 30 Days), so calls take turns and every other request can come in
  // between. PostgreSQL counts in its own processes: a few calls at once leave the pool's other
  // connections to the rest of the API.
  const turns = new Turns(app.db.engine === 'sqlite' ? 1 : 3);
  app.get(
    '/api/dashboard/',
    {
      schema: {
        tags: ['devices'],
        summary: "The dashboard's figures for a hub, a timeframe and the viewer's time zone",
        querystring: DashboardQuery,
        response: { 200: DashboardStats },
      },
    },
    async (request, reply) => {
      const { hub, timeframe, tz } = request.query;
      reply.header('cache-control', 'no-store');
      return turns.run(() => dashboardFigures(app.db, { hub, timeframe, timeZone: tz, now: clock() }));
    },
  );
};
