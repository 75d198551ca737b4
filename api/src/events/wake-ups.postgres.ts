// PostgreSQL: the hub woken by a notification of channel veritas_events (event-order.ts) on a
// connection of its own (not one of the pool's), sent by every instance's writes at their commit;
// LISTEN again whenever that connection fails or drops.
import { Client } from 'pg';
import { EVENTS_CHANNEL } from './event-order';
import type { WakeUps } from './hub';

/** Delay before opening the listening connection again after it failed or dropped. */
const RELISTEN_MS = 1000;

export const postgresWakeUps: WakeUps = (db, wake, log) => {
  let stopped = false;
  let listener: Client | undefined;
  let relisten: NodeJS.Timeout | undefined;

  const listen = async (): Promise<void> => {
    if (stopped) return;
    const client = new Client(db.pg!.options);
    listener = client;
    const lost = (error: Error) => {
      if (listener !== client) return;
      listener = undefined;
      client.end().catch(() => undefined);
      if (stopped) return;
      log.warn({ err: error }, 'The events listener lost its connection; listening again');
      relisten = setTimeout(() => void listen(), RELISTEN_MS).unref();
    };
    client.on('notification', wake);
    client.on('error', lost);
    client.on('end', () => lost(new Error('The connection ended.')));
    try {
      await client.connect();
      await client.query(`listen ${EVENTS_CHANNEL}`);
    } catch (error) {
      lost(error as Error);
      return;
    }
    // What was committed while no connection listened.
    wake();
  };

  void listen();
  return {
    async stop() {
      stopped = true;
      clearTimeout(relisten);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
    },
  };
};
