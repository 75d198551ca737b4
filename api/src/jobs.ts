// The server's background jobs, in one place (docs/operations.md#background-jobs): what a server
// does on its own beside the requests it answers. createServer lists them; each starts once the
// server is ready and stops as it closes, after the requests under way and before the database.
import type { FastifyInstance } from 'fastify';

/** Work a server does on its own: started once, stopped once. */
export interface BackgroundJob {
  start(): void;
  /** Resolves once the job has let go of everything: its timers, threads and the work under way. */
  stop(): Promise<void> | void;
}

/**
 * Starts `jobs` when `app` is ready, in order, and stops them when it closes, in the reverse order;
 * then `afterwards` (the database's close).
 */
export function runJobs(app: FastifyInstance, jobs: BackgroundJob[], afterwards: () => Promise<void>): void {
  app.addHook('onReady', async () => {
    for (const job of jobs) job.start();
  });
  app.addHook('onClose', async () => {
    for (const job of [...jobs].reverse()) await job.stop();
    await afterwards();
  });
}
