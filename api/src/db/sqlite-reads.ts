// SQLite reads on a thread of their own (Db.reads), for the long aggregate reads (the dashboard's
// figures, the case counts). better-sqlite3 answers synchronously, so on the server's connection
// such a read holds the event loop for its whole length, and every other request waits behind it.
// Where browsers share the cores with the server, a 30 ms count took 1.1–1.5 s of the loop's time
// in `bench:dashboards` (docs/benchmarks.md), and `get_role` waited that long. Here a worker thread
// with a read-only connection of its own runs the queries Kysely compiles, one at a time; WAL
// lets it read while the server's connection writes, and a transaction keeps its reads in one
// snapshot. Kysely has no driver for a connection on another thread (its SQLite driver is
// synchronous), hence the few lines of one below.
import { Worker } from 'node:worker_threads';
import {
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import { DatabaseUnavailable } from './availability';
import type { Database } from './schema';

/** How many prepared statements the worker keeps: more than the reads it serves have texts. */
const STATEMENTS_KEPT = 200;

// Evaluated rather than loaded from a file, as checkpoints.ts's worker: it runs alike under tsx,
// jest and the production bundle. Each message is a query; its answer, the rows or the error.
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const kept = new Map();
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    let statement = kept.get(sql);
    if (!statement) {
      if (kept.size >= workerData.statementsKept) kept.clear();
      statement = db.prepare(sql);
      kept.set(sql, statement);
    }
    const rows = statement.reader ? statement.all(parameters) : (statement.run(parameters), []);
    parentPort.postMessage({ id, rows });
  } catch (error) {
    parentPort.postMessage({ id, error: error.message });
  }
});
`;

interface Pending {
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

/** The worker and its queries under way; a worker that died is replaced by the next query. */
class ReadThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(private readonly file: string) {}

  query(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, sql, parameters });
    });
  }

  private start(): Worker {
    const worker = new Worker(WORKER_CODE, {
      eval: true,
      workerData: { driver: require.resolve('better-sqlite3'), file: this.file, statementsKept: STATEMENTS_KEPT },
    });
    worker.on('message', ({ id, rows, error }: { id: number; rows?: unknown[]; error?: string }) => {
      const pending = this.pending.get(id);
      this.pending.delete(id);
      if (error === undefined) pending?.resolve(rows!);
      else pending?.reject(new Error(error));
    });
    // A dead worker's queries answer 503 (DatabaseUnavailable); the next query starts another.
    const died = (cause: unknown) => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const pending of this.pending.values()) pending.reject(new DatabaseUnavailable(false, { cause }));
      this.pending.clear();
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`SQLite's read thread exited with ${code}`)));
    // A process that never closes its server is not kept alive by it.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}

/** Kysely's connection to the thread; one query at a time, as the driver hands it out. */
class ReadConnection implements DatabaseConnection {
  constructor(private readonly thread: ReadThread) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const rows = await this.thread.query(compiledQuery.sql, compiledQuery.parameters);
    return { rows: rows as R[] };
  }

  // eslint-disable-next-line require-yield -- no read of this kind streams; Kysely requires the method
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('SQLite reads off the event loop do not stream');
  }
}

/** One connection, lent to one user at a time (a transaction's reads stay together). */
class ReadDriver implements Driver {
  private readonly connection: ReadConnection;
  private lent: Promise<void> = Promise.resolve();
  private giveBack: (() => void) | null = null;

  constructor(private readonly thread: ReadThread) {
    this.connection = new ReadConnection(thread);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const before = this.lent;
    let giveBack!: () => void;
    this.lent = new Promise((resolve) => (giveBack = resolve));
    await before;
    this.giveBack = giveBack;
    return this.connection;
  }

  async beginTransaction(): Promise<void> {
    await this.thread.query('begin', []);
  }

  async commitTransaction(): Promise<void> {
    await this.thread.query('commit', []);
  }

  async rollbackTransaction(): Promise<void> {
    // Nothing to undo in reads; a thread that died holds no transaction any more, so the error
    // that ended the transaction is the one to tell, not this.
    await this.thread.query('rollback', []).catch(() => undefined);
  }

  async releaseConnection(): Promise<void> {
    const giveBack = this.giveBack;
    this.giveBack = null;
    giveBack?.();
  }

  async destroy(): Promise<void> {
    await this.thread.close();
  }
}

/** Kysely over the SQLite database `file`, its queries run on a thread of their own, reads only. */
export function sqliteReadsOffThread(file: string): Kysely<Database> {
  const thread = new ReadThread(file);
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new ReadDriver(thread),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
}
