// How many dashboard calls count at once, as the database's engine allows (figures.sqlite.ts,
// figures.postgres.ts), the others waiting their turn.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DashboardStats } from '@veritas/shared/domain';
import { forEngine } from '../db/engines';
import type { Db } from '../db/schema';
import { dashboardFigures, type FiguresRequest } from './figures';
import { postgresFigures } from './figures.postgres';
import { sqliteFigures } from './figures.sqlite';

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

/** dashboardFigures for `db`, read as its engine reads them, its calls taking turns. */
export function figuresInTurn(db: Db): (request: FiguresRequest) => Promise<DashboardStats> {
  const engine = forEngine(db, { postgres: postgresFigures, sqlite: sqliteFigures });
  const turns = new Turns(engine.callsAtOnce);
  return (request) => turns.run(() => dashboardFigures(db, engine, request));
}
