// Where PostgreSQL and SQLite differ, a feature keeps each engine's code in its own file
// (`<name>.postgres.ts`, `<name>.sqlite.ts`) behind one interface, and chooses between them here:
// no code outside db/ and those files branches on the engine (the lint rule of eslint.config.mjs).
import type { Db, Engine } from './schema';

/** The one of `choices` written for `db`'s engine. */
export function forEngine<T>(db: Pick<Db, 'engine'>, choices: Record<Engine, T>): T {
  return choices[db.engine];
}
