// The in-process bus of SQLite, which serves one process: a write that inserted events wakes the
// hubs of its database once its transaction is over. (PostgreSQL's writes notify every instance
// through pg_notify instead.)
import type { Db } from '../db/schema';
import type { WakeUps } from './hub';

const hubs = new WeakMap<Db, Set<() => void>>();

/** Calls `wake` after each write of events through `db`; returns the unsubscription. */
export function onEventsWritten(db: Db, wake: () => void): () => void {
  let woken = hubs.get(db);
  if (!woken) hubs.set(db, (woken = new Set()));
  woken.add(wake);
  return () => woken.delete(wake);
}

/**
 * Wakes the hubs once the current transaction is over: a hub's read waits for Kysely's one SQLite
 * connection, which the transaction holds until it commits, so the read sees the events. (Rolled
 * back, it finds nothing, which is harmless.)
 */
export function wakeAfterCommit(db: Db): void {
  const woken = hubs.get(db);
  if (!woken) return;
  setImmediate(() => {
    for (const wake of woken) wake();
  });
}

/** The hub of this process woken by the bus. */
export const sqliteWakeUps: WakeUps = (db, wake) => {
  const leave = onEventsWritten(db, wake);
  return { stop: async () => leave() };
};
