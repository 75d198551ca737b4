// How many dashboard calls count at once, as the database's engine allows (figures.sqlite.ts,
// figures.postgres.ts), the others waiting their turn; calls for one selection that wait together
// share one count.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DashboardStats } from '@veritas/shared/domain';
import { forEngine } from '../db/engines';
import type { Db } from '../db/schema';
import { dashboardFigures, selectionOf, type FiguresRequest } from './figures';
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

/**
 * dashboardFigures for `db`, read as its engine reads them, its calls taking turns. A call whose
 * selection is already waiting for its turn joins that count instead of adding one: consoles that
 * open the Dashboard together, or follow one live change, mostly ask the same. Only a count not
 * yet started is joined, so its snapshot is taken after every call it answers came in, and each
 * answer is as fresh as a count of its own (memoising libraries would also hand out a count that
 * started before the call, which could miss a write the caller has already seen committed).
 */
export function figuresInTurn(db: Db): (request: FiguresRequest) => Promise<DashboardStats> {
  const engine = forEngine(db, { postgres: postgresFigures, sqlite: sqliteFigures });
  const turns = new Turns(engine.callsAtOnce);
  const notStarted = new Map<string, Promise<DashboardStats>>();
  return (request) => {
    const selection = selectionOf(request);
    const waitingCount = notStarted.get(selection.key);
    if (waitingCount) return waitingCount;
    const count = turns.run(() => {
      notStarted.delete(selection.key);
      return dashboardFigures(db, engine, selection);
    });
    notStarted.set(selection.key, count);
    return count;
  };
}
