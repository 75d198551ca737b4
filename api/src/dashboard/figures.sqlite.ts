// The dashboard's figures on SQLite (figures.ts). SQLite answers on the event loop, one query at a
// time: a call holds it for its whole read, so calls take turns one at a time and every other
// request can come in between.
import type { FiguresEngine } from './figures';

export const sqliteFigures: FiguresEngine = {
  callsAtOnce: 1,
  // A transaction holds SQLite's one connection: no write commits until it ends.
  inSnapshot: (db, read) => db.transaction(read),
};
