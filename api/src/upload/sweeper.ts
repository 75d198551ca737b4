// Each instance finishes the uploads other instances left (docs/operations.md#upload-leases): at
// start and every SWEEP_MS it takes over, one after the other, the uploads still 'processing'
// whose lease ran out, and runs their ingest in the background, keeping the result for the
// console's resent final chunk, so an upload completes even when no console is waiting.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/schema';
import type { BackgroundJob } from '../jobs';
import { completeUpload } from './ingest';
import { IngestStopped, LeaseLost, staleUploads, takeOver } from './lease';

/** Half a lease: a dead instance's upload is taken over at most LEASE_MS + SWEEP_MS after its last renewal. */
export const SWEEP_MS = 10_000;

export class UploadSweeper implements BackgroundJob {
  private readonly stopping = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
  ) {}

  start(): void {
    this.sweepInBackground();
    this.timer = setInterval(() => this.sweepInBackground(), SWEEP_MS);
    this.timer.unref();
  }

  /** No new sweep; the ingest under way stops between batches and hands its lease over. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.stopping.abort(new IngestStopped());
    await this.sweeping;
  }

  /** Takes over and finishes each upload whose lease ran out; resolves when done or stopped. */
  async sweep(): Promise<void> {
    const { signal } = this.stopping;
    for (const uploadId of await staleUploads(this.db)) {
      if (signal.aborted) return;
      const lease = await takeOver(this.db, uploadId, { signal });
      if (!lease) continue; // another instance was quicker
      try {
        const result = await completeUpload(this.db, lease);
        this.log.info(
          { uploadId, processed: result.processed, skipped: result.skipped },
          'Upload taken over and finished',
        );
      } catch (error) {
        if (error instanceof IngestStopped) return;
        // Lost to another instance, or failed: marked failed, for a resent final chunk to retry.
        if (!(error instanceof LeaseLost))
          this.log.warn({ uploadId, err: error }, 'Upload taken over could not be finished');
      }
    }
  }

  /** One sweep at a time: a tick while one runs (a long ingest) is skipped. */
  private sweepInBackground(): void {
    if (this.sweeping || this.stopping.signal.aborted) return;
    this.sweeping = this.sweep()
      .catch((error: unknown) => this.log.warn({ err: error }, 'Sweep for stale uploads failed'))
      .finally(() => {
        this.sweeping = undefined;
      });
  }
}
