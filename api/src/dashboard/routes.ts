// api/dashboard/ (feature 'dashboard-figures', docs/dashboard.md#server-side-figures): every figure
// of the dashboard for a hub, a timeframe and the viewer's time zone, equal to what the console
// computes from api/get_status/'s records in a browser of that zone. Any signed-in console user,
// as api/get_status/. Never cached: the figures are counted for each call, or for calls that
// waited together for the same selection (turns.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DashboardQuery, DashboardStats } from '@veritas/shared/domain';
import { figuresInTurn } from './turns';

export interface DashboardRouteOptions {
  /** The server's clock: "today" is the day of its now in the viewer's zone. */
  clock: () => Date;
}

export const dashboardRoutes: FastifyPluginAsyncTypebox<DashboardRouteOptions> = async (app, { clock }) => {
  const figures = figuresInTurn(app.db);
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
      return figures({ hub, timeframe, timeZone: tz, now: clock() });
    },
  );
};
