// The dashboard's figures on SQLite (figures.ts), read on the read thread (Db.reads): on the
// server's connection a count held the event loop, and every other request, for its whole read.
// One call counts at a time; a transaction keeps its reads in one snapshot while writes commit.
import type { FiguresEngine } from './figures';

export const sqliteFigures: FiguresEngine = {
  callsAtOnce: 1,
  inSnapshot: (db, read) => db.reads.transaction().execute(read),
};
