// How many dashboard calls count at once. SQLite answers on the event loop, one query at a time:
// a call holds it for its whole read, so calls take turns and every other request can come in
// between. PostgreSQL counts in its own processes: a few calls at once
// leave the pool's other connections to the rest of the API.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DashboardStats } from '@veritas/shared/domain';
import type { Db } from '../db/schema';
import { dashboardFigures, type FiguresRequest } from './figures';

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

/** dashboardFigures for `db`, its calls taking turns as the database's engine needs. */
export function figuresInTurn(db: Db): (request: FiguresRequest) => Promise<DashboardStats> {
  const turns = new Turns(db.engine === 'sqlite' ? 1 : 3);
  return (request) => turns.run(() => dashboardFigures(db, request));
}
