// SQLite's WAL checkpoints on a thread of their own. A checkpoint copies the pages written to the
// WAL into the database file and syncs both; left to SQLite (wal_autocheckpoint, connection.ts)
// it runs inside the commit that crosses the threshold, on the one thread that answers every
// request, and took about a tenth of an upload's time (api/README.md#upload). Here a worker thread
// with a connection of its own copies whatever was committed every CHECKPOINT_MS, on the other
// core; the automatic checkpoint stays as a fallback should the worker fall behind or stop.
import { Worker } from 'node:worker_threads';
import type { BackgroundJob } from '../jobs';
import type { Db } from './schema';

/** How often the worker copies the WAL into the database file. */
const CHECKPOINT_MS = 50;

// Evaluated rather than loaded from a file: plain JavaScript, it runs alike under tsx, jest and the
// production bundle, and the build has no second entry to ship. PASSIVE never waits for a lock:
// what readers still need is copied by a later run.
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
const timer = setInterval(() => db.pragma('wal_checkpoint(PASSIVE)'), workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** Checkpointing the WAL of a SQLite database (a server's, from start to close); nothing on PostgreSQL. */
export function sqliteCheckpoints(db: Db): BackgroundJob {
  let stop = async () => undefined as void;
  return {
    start() {
      if (!db.sqlite) return;
      const worker = new Worker(WORKER_CODE, {
        eval: true,
        workerData: { driver: require.resolve('better-sqlite3'), file: db.sqlite.name, everyMs: CHECKPOINT_MS },
      });
      // The writer's automatic checkpoints take over: nothing is lost, writes are only slower.
      worker.on('error', (error) => console.error(`SQLite checkpoints stopped: ${error.message}`));
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      // A process that never closes its server is not kept alive by it.
      worker.unref();
      stop = async () => {
        // Referenced again: otherwise a process with nothing else to do would exit before the worker.
        worker.ref();
        worker.postMessage('stop');
        await exited;
      };
    },
    stop: () => stop(),
  };
}
