// The lease of an upload being ingested (docs/operations.md#upload-leases): the instance that
// ingests an upload holds it until uploads.lease_until_ms and renews it while it works, so an
// upload left 'processing' by an instance that died shows a lease that ran out, and another
// instance takes it over (the resent final chunk, or a sweep: sweeper.ts). Every write of the
// lease compares the value its holder last wrote: a taker always writes a later time than the one
// that ran out, so that value tells the holder whether the lease is still its own.
import type { Db } from '../db/schema';

/**
 * How long a lease lasts unless renewed, and how often its holder renews it. The ingest renews
 * between batches (one takes well under a second), so 20 s leaves three missed renewals of margin
 * for a slow batch or a busy database before another instance may take the upload over, and is
 * short next to the 5 minutes the console keeps asking for the result of an upload in progress.
 */
export const LEASE_MS = 20_000;
export const RENEW_MS = 5_000;

/** The upload an ingest holds. */
export interface HeldUpload {
  uploadId: string;
  totalChunks: number;
  /** uploads.created_at: the created date of rows that give none, the same on every run of the upload. */
  createdAt: string;
  /** Run again after a run that did not finish: some rows may already be stored by that run. */
  resumed: boolean;
}

/** Another instance took the upload over: this run stops, the new holder finishes it. */
export class LeaseLost extends Error {
  constructor(uploadId: string) {
    super(`The lease of upload ${uploadId} was taken over by another instance.`);
    this.name = 'LeaseLost';
  }
}

/** The server is closing: a background ingest stops between batches and hands its lease over. */
export class IngestStopped extends Error {
  constructor() {
    super('The server is closing.');
    this.name = 'IngestStopped';
  }
}

export interface LeaseOptions {
  /** Milliseconds since the epoch; tests move it on. */
  clock?: () => number;
  /** Aborted (with an IngestStopped) when the server closes: the ingest stops at its next keep(). */
  signal?: AbortSignal;
}

export class Lease {
  private renewAt: number;
  private readonly clock: () => number;

  constructor(
    private readonly db: Db,
    readonly upload: HeldUpload,
    /** The lease_until_ms this holder last wrote. */
    private heldUntil: number,
    private readonly options: LeaseOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.renewAt = this.clock() + RENEW_MS;
  }

  get until(): number {
    return this.heldUntil;
  }

  /** Called between batches: stops when the server closes, renews when due; throws LeaseLost when taken over. */
  async keep(): Promise<void> {
    this.options.signal?.throwIfAborted();
    const now = this.clock();
    if (now < this.renewAt) return;
    await this.write(now + LEASE_MS);
    this.renewAt = now + RENEW_MS;
  }

  /** Stopped, not failed: the lease ends now, so the next sweep of any instance takes the upload over. */
  handOver(): Promise<void> {
    return this.write(this.clock());
  }

  private async write(until: number): Promise<void> {
    const { numUpdatedRows } = await this.db.kysely
      .updateTable('uploads')
      .set({ lease_until_ms: until })
      .where('upload_id', '=', this.upload.uploadId)
      .where('status', '=', 'processing')
      .where('lease_until_ms', '=', this.heldUntil)
      .executeTakeFirst();
    if (numUpdatedRows === 0n) throw new LeaseLost(this.upload.uploadId);
    this.heldUntil = until;
  }
}

/**
 * Takes over an upload still 'processing' whose lease ran out (its instance died, stopped or
 * gave up): of instances trying at once, one UPDATE wins. A lease that is null (an upload claimed
 * by code older than leases, which may still be ingesting it) is never taken over.
 */
export async function takeOver(db: Db, uploadId: string, options: LeaseOptions = {}): Promise<Lease | undefined> {
  const now = (options.clock ?? Date.now)();
  const until = now + LEASE_MS;
  const taken = await db.kysely
    .updateTable('uploads')
    .set({ lease_until_ms: until })
    .where('upload_id', '=', uploadId)
    .where('status', '=', 'processing')
    .where('lease_until_ms', '<', now)
    .returning(['total_chunks', 'created_at'])
    .executeTakeFirst();
  if (!taken) return undefined;
  const upload = { uploadId, totalChunks: taken.total_chunks, createdAt: taken.created_at, resumed: true };
  return new Lease(db, upload, until, options);
}

/** Uploads whose holder died or stopped (the lease ran out), oldest first. */
export async function staleUploads(db: Db, now = Date.now()): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom('uploads')
    .select('upload_id')
    .where('status', '=', 'processing')
    .where('lease_until_ms', '<', now)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => row.upload_id);
}
