// What a database restart or failover looks like to the API, and how it rides one out
// (docs/operations.md#database-restarts): waiting a little for a connection, repeating what is
// safe to repeat on a fresh one, and otherwise answering 503 with Retry-After (http-errors.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import {
  SelectQueryNode,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { Pool, type PoolClient, type PoolConfig } from 'pg';
import { StartRefused } from '../start-refused';

/** The database cannot serve now; `outcomeUnknown` when a COMMIT was under way as it failed. */
export class DatabaseUnavailable extends Error {
  constructor(
    readonly outcomeUnknown: boolean,
    options: { cause: unknown },
  ) {
    super(outcomeUnknown ? 'Database unavailable; the outcome is unknown' : 'Database unavailable', options);
  }
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);
// 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now; class 08 is connection exceptions.
const SHUTDOWN_STATES = new Set(['57P01', '57P02', '57P03']);
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
];

/** A failure of the connection rather than of the statement: the same work may succeed on another. */
export function isConnectionError(error: unknown): boolean {
  // Read by shape, not `instanceof Error`: a socket's errors may come from another realm.
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || SHUTDOWN_STATES.has(code) || /^08/.test(code))) {
    return true;
  }
  return typeof message === 'string' && CONNECTION_MESSAGES.some((text) => message.includes(text));
}

/** What answers 503: the database unreachable (PostgreSQL) or locked past the busy timeout (SQLite). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailable || isConnectionError(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT' || code === 'SQLITE_LOCKED';
}

/** How long a starting instance waits for its database unless DATABASE_WAIT_SECONDS says otherwise. */
export const DEFAULT_DATABASE_WAIT_SECONDS = 180;
/** The pauses between a starting instance's attempts to reach its database: 1 s, then 2 s each time. */
const START_BACKOFF_MS = [1000, 2000];

export interface DatabaseWait {
  /** How long to keep trying, from the first attempt: past it, the start fails. */
  limitSeconds: number;
  /** Where each failed attempt is told, one line each. */
  log: (line: string) => void;
  /** The clock and the pause (tests pass their own). */
  now?: () => number;
  sleep?: (ms: number) => Promise<unknown>;
}

/** A connection failure in a few words: its system code (ECONNREFUSED), else its message. */
function failureOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  return typeof message === 'string' && message !== '' ? message : String(code);
}

/**
 * `attempt` (opening and migrating the database) tried again while it fails to reach the database,
 * for up to `limitSeconds`: an instance started before its database (a fleet and PostgreSQL
 * started together, or restarted) waits for it rather than exiting. Any other failure, such as a
 * migration that fails, would fail again: thrown at once.
 */
export async function waitForDatabase<T>(
  attempt: () => Promise<T>,
  { limitSeconds, log, now = Date.now, sleep: pause = sleep }: DatabaseWait,
): Promise<T> {
  const deadline = now() + limitSeconds * 1000;
  for (let failures = 0; ; failures++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isConnectionError(error)) throw error;
      const failure = failureOf(error);
      const wait = START_BACKOFF_MS[Math.min(failures, START_BACKOFF_MS.length - 1)]!;
      if (now() + wait > deadline) {
        throw new StartRefused(
          `The database was not reachable within ${limitSeconds} s (${failure}): check DATABASE_URL, ` +
            'or give it longer with DATABASE_WAIT_SECONDS.',
          { cause: error },
        );
      }
      log(`Database not reachable (${failure}); trying again in ${wait / 1000} s`);
      await pause(wait);
    }
  }
}

/** How long acquiring a connection keeps trying while PostgreSQL is down, e.g. a fast restart (~1 s). */
const CONNECT_PATIENCE_MS = 3000;
const CONNECT_BACKOFF_MS = [50, 100, 200, 400];

/** A pool whose connect() tries again with a short backoff for CONNECT_PATIENCE_MS before failing. */
export class PatientPool extends Pool {
  constructor(config: PoolConfig) {
    super(config);
    // The pool listens for errors of idle clients only. A checked-out client whose connection drops
    // between two statements (a restart during a transaction) emits 'error' with nobody listening,
    // which would end the process; its next statement fails with that error anyway, and the pool
    // drops the client when it is released.
    this.on('connect', (client) => client.on('error', () => undefined));
  }

  // The promise form only: Kysely's driver is its one caller.
  override connect(): Promise<PoolClient>;
  override connect(callback: (err: Error | undefined, client: PoolClient | undefined, done: () => void) => void): void;
  override connect(callback?: (err: Error | undefined, client: PoolClient | undefined, done: () => void) => void) {
    if (callback) return super.connect(callback);
    return this.patientConnect();
  }

  private async patientConnect(): Promise<PoolClient> {
    const deadline = Date.now() + CONNECT_PATIENCE_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        return await super.connect();
      } catch (error) {
        const wait = CONNECT_BACKOFF_MS[Math.min(attempt, CONNECT_BACKOFF_MS.length - 1)]!;
        if (!isConnectionError(error) || Date.now() + wait > deadline) throw error;
        await sleep(wait);
      }
    }
  }
}

/**
 * Kysely's driver, with a statement outside a transaction that fails on a dead pooled connection
 * run once more on a fresh one, when repeating it is safe: a read. A lone write is not repeated:
 * its connection may have dropped after the server applied it, so it answers 503 with the outcome
 * unknown. Statements inside a transaction are never repeated one by one: Db.transaction repeats
 * the whole transaction.
 */
export class ReconnectingDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init() {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new ReconnectingConnection(this.inner, await this.inner.acquireConnection());
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    (connection as ReconnectingConnection).inTransaction = true;
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection) {
    return this.inner.commitTransaction(connection).finally(() => this.ended(connection));
  }

  rollbackTransaction(connection: DatabaseConnection) {
    return this.inner.rollbackTransaction(connection).finally(() => this.ended(connection));
  }

  releaseConnection(connection: DatabaseConnection) {
    return this.inner.releaseConnection((connection as ReconnectingConnection).current);
  }

  destroy() {
    return this.inner.destroy();
  }

  private ended(connection: DatabaseConnection) {
    (connection as ReconnectingConnection).inTransaction = false;
  }
}

class ReconnectingConnection implements DatabaseConnection {
  inTransaction = false;

  constructor(
    private readonly driver: Driver,
    public current: DatabaseConnection,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.current.executeQuery<R>(query);
    } catch (error) {
      if (this.inTransaction || !isConnectionError(error)) throw error;
      if (!isRead(query)) throw new DatabaseUnavailable(true, { cause: error });
      // Acquired first, so that the dead one is released exactly once whatever happens; the pool
      // drops a client whose connection failed when it is released.
      const fresh = await this.driver.acquireConnection();
      await this.driver.releaseConnection(this.current);
      this.current = fresh;
      return this.current.executeQuery<R>(query);
    }
  }

  // Rows already streamed cannot be taken back: a stream is not repeated.
  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.current.streamQuery<R>(query, chunkSize);
  }
}

const isRead = (query: CompiledQuery) =>
  SelectQueryNode.is(query.query) || (query.query.kind === 'RawNode' && /^\s*select\b/i.test(query.sql));
