// The event hub of one API instance (docs/events.md#fan-out): it reads the events committed since
// it last read, in id order, and hands them to every open stream of this instance. Woken:
//   - on PostgreSQL by a notification of channel veritas_events on a connection of its own (not
//     one of the pool's), sent by every instance's writes at their commit;
//   - on SQLite (one instance) by the in-process bus after each write;
//   - on both, every POLL_MS, in case a wake was lost (the listening connection dropping, say).
// Wakes coming while it reads are coalesced into one more read. It reads committed rows only, and
// ids grow in commit order (write.ts), so reading `id > last read` never skips an event.
import type { FastifyBaseLogger } from 'fastify';
import { forEngine } from '../db/engines';
import type { Db } from '../db/schema';
import type { BackgroundJob } from '../jobs';
import { eventsFrom, newestEventId, pruneEvents, type StoredEvent } from './repository';
import { postgresWakeUps } from './wake-ups.postgres';
import { sqliteWakeUps } from './wake-ups.sqlite';

const POLL_MS = 2000;
const PRUNE_MS = 60_000;
/** Events read per statement. */
const PAGE = 1000;

export type EventListener = (events: readonly StoredEvent[]) => void;

/** What wakes a hub at each commit of events (wake-ups.postgres.ts, wake-ups.sqlite.ts), until stopped. */
export type WakeUps = (db: Db, wake: () => void, log: FastifyBaseLogger) => { stop(): Promise<void> };

export class EventHub implements BackgroundJob {
  /** The newest id read; undefined until the first read, which starts from the newest event then. */
  private lastRead: number | undefined;
  private draining: Promise<void> | undefined;
  private drainAgain = false;
  private pruning: Promise<void> | undefined;
  private readonly listeners = new Set<EventListener>();
  private readonly timers: NodeJS.Timeout[] = [];
  private wakeUps: { stop(): Promise<void> } | undefined;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Starts listening, polling and pruning; a database that cannot be reached yet is retried. */
  start(): void {
    // unref: the hub alone does not keep a process alive (the server does, until it closes).
    this.timers.push(
      setInterval(() => this.wake(), POLL_MS).unref(),
      setInterval(() => {
        this.pruning ??= pruneEvents(this.db, Date.now())
          .catch((error: unknown) => this.log.error({ err: error }, 'Pruning the events failed'))
          .finally(() => (this.pruning = undefined));
      }, PRUNE_MS).unref(),
    );
    this.wakeUps = forEngine(this.db, { postgres: postgresWakeUps, sqlite: sqliteWakeUps })(
      this.db,
      () => this.wake(),
      this.log,
    );
    this.wake();
  }

  /** Resolves once the hub knows where it starts: a stream subscribes only then (routes.ts says why). */
  async ready(): Promise<void> {
    while (this.lastRead === undefined) {
      if (this.closed) throw new Error('The event hub is closed.');
      await this.drain();
    }
  }

  /**
   * The newest event id read, undefined before the first read: every event up to it was committed
   * before this call, so a read that starts after it shows them all (the page document's and the
   * sign-in's mark, docs/events.md#the-first-stream).
   */
  newestRead(): number | undefined {
    return this.lastRead;
  }

  /** `listener` gets every event read from now on, in id order; answers the unsubscription. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads what was committed since the last read (now, or after the read under way). */
  wake(): void {
    this.drain().catch((error: unknown) => this.log.error({ err: error }, 'Reading the events failed'));
  }

  async stop(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.listeners.clear();
    await this.wakeUps?.stop();
    // Before the database closes.
    await Promise.allSettled([this.draining, this.pruning]);
  }

  private drain(): Promise<void> {
    if (this.draining) {
      this.drainAgain = true;
      return this.draining;
    }
    const run = async () => {
      try {
        do {
          this.drainAgain = false;
          await this.readNew();
        } while (this.drainAgain && !this.closed);
      } finally {
        this.draining = undefined;
      }
    };
    return (this.draining = run());
  }

  private async readNew(): Promise<void> {
    if (this.closed) return;
    if (this.lastRead === undefined) {
      this.lastRead = await newestEventId(this.db);
      return;
    }
    for (;;) {
      const events = await eventsFrom(this.db, this.lastRead + 1, PAGE);
      if (events.length === 0) return;
      this.lastRead = events[events.length - 1]!.id;
      for (const listener of [...this.listeners]) {
        // One stream's failure must not keep the others from their events.
        try {
          listener(events);
        } catch (error) {
          this.log.error({ err: error }, 'An event stream failed');
        }
      }
      if (events.length < PAGE) return;
    }
  }
}
