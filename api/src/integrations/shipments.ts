// Shipments in (docs/integrations.md#shipments-in): an order system sends a shipment as JSON items
// or as the upload's CSV, and it becomes an upload of its API key, stored and processed by the
// upload's own code (src/upload/: chunks, lease, ingest, audit), so its rows follow the same rules
// and answer the same result. The upload's id is derived from the key and the call's
// Idempotency-Key: a call repeated with the same body finds that upload and answers from it; calls
// sent at once race for its row (the primary key), and one stores the body while the others read
// its outcome. A small batch is processed during its call; a larger one in the background, under
// the upload's lease, which another instance's sweep takes over should this one die.
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { ShipmentJob, ShipmentState, UploadResult } from '@veritas/shared/domain';
import type { TokenCaller } from '../access-tokens/access-tokens';
import type { Db } from '../db/schema';
import { BadRequest, DomainError, NotFound, UnprocessableContent } from '../http-errors';
import { completeUpload } from '../upload/ingest';
import { IngestStopped, LEASE_MS, LeaseLost, takeOver, type Lease, type LeaseOptions } from '../upload/lease';
import {
  claimKeyUpload,
  dropChunks,
  expireUploads,
  keyUploadOf,
  retryUpload,
  storeKeyChunk,
  type KeyUploadRow,
  type UploadFailure,
} from '../upload/repository';
import { readShipmentBody, type BodyFormat, type ReadBody } from './shipment-body';

/** A batch of at most this many rows, and one chunk (1 MiB), is processed during its call. */
export const SMALL_BATCH_ROWS = 1000;
/**
 * How long a call repeating a small batch that another call is processing waits for its result
 * before answering 202: a lease's length, by which a dead holder's lease has run out and the call
 * takes the batch over itself.
 */
export const REPEAT_WAIT_MS = LEASE_MS;
const REPEAT_POLL_MS = 250;

/** The namespace of the shipments' ids: a UUID of this API's own. */
const ID_NAMESPACE = Buffer.from('6f1c2b7e9d4a4c55a3e08b1f27d6c940', 'hex');

/**
 * The upload id of a key's Idempotency-Key: a name-based UUID (RFC 9562 version 5: SHA-1 of the
 * namespace and the name), the same on every instance and for every repeat of the call.
 */
export function shipmentIdOf(tokenId: number, idempotencyKey: string): string {
  const hash = createHash('sha1').update(ID_NAMESPACE).update(`${tokenId}\n${idempotencyKey}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface ShipmentCall {
  token: TokenCaller;
  idempotencyKey: string;
  format: BodyFormat;
  body: AsyncIterable<Buffer>;
  /** The client's address, for the audit trail. */
  address: string;
}

/** 200 with the result, or 202 with the job to poll; `repeated` when an earlier call stored the body. */
export type ShipmentAnswer =
  { status: 200; result: UploadResult; repeated: boolean } | { status: 202; job: ShipmentJob; repeated: boolean };

const isSmall = (body: ReadBody) => body.rows <= SMALL_BATCH_ROWS && body.totalChunks === 1;

/** What a refusal of the whole body answers: the API's bodies are not files, so it names `body`. */
function refusalOf(failure: UploadFailure): DomainError {
  return failure.status === 400
    ? new BadRequest('body', failure.detail)
    : new DomainError(failure.status, failure.detail);
}

/** The background ingests of this instance, stopped between batches when the server closes. */
class BackgroundIngests {
  private readonly stopping = new AbortController();
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
  ) {}

  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  start(lease: Lease, address: string): void {
    const { uploadId } = lease.upload;
    const run = completeUpload(this.db, lease, address).then(
      (result) =>
        this.log.info({ uploadId, processed: result.processed, skipped: result.skipped }, 'Shipment processed'),
      (error: unknown) => {
        // Stopped: handed over to the next sweep. Lost: another instance finishes it. Failed: kept
        // as failed, for the same call sent again.
        if (!(error instanceof IngestStopped || error instanceof LeaseLost))
          this.log.warn({ uploadId, err: error }, 'Shipment could not be processed');
      },
    );
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  async stop(): Promise<void> {
    this.stopping.abort(new IngestStopped());
    await Promise.allSettled([...this.running]);
  }
}

export class Shipments {
  private readonly background: BackgroundIngests;

  constructor(
    private readonly db: Db,
    log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
    /** The path of the shipments' polls, up to the id: from the server's prefix, never a request's headers. */
    private readonly pollPath: string,
  ) {
    this.background = new BackgroundIngests(db, log);
  }

  /** Background ingests stop between batches and hand their leases over (to the next sweep of any instance). */
  stop(): Promise<void> {
    return this.background.stop();
  }

  private jobOf(id: string): ShipmentJob {
    return { id, status: 'processing', poll: `${this.pollPath}${id}/` };
  }

  /** What a lease's options are for a batch: a background one stops with the server. */
  private leaseOptions(small: boolean): LeaseOptions {
    return small ? {} : { signal: this.background.signal };
  }

  /** Receives a call: stores its body as a new upload and processes it, or answers an earlier call's. */
  async receive(call: ShipmentCall): Promise<ShipmentAnswer> {
    const { token, idempotencyKey, format, body, address } = call;
    const uploadId = shipmentIdOf(token.id, idempotencyKey);
    const earlier = await keyUploadOf(this.db, uploadId, token.id);
    // Sent before: the body is read only to compare it, nothing is stored.
    if (earlier) return this.repeat(token, uploadId, earlier, await readShipmentBody(body, format, null), address);

    // A new upload starting is a good moment to drop abandoned ones (as the console's first chunk does).
    await expireUploads(this.db);
    const stagedId = randomUUID();
    let read: ReadBody;
    try {
      read = await readShipmentBody(body, format, (chunkIndex, data) =>
        storeKeyChunk(this.db, token.id, {
          uploadId: stagedId,
          chunkIndex,
          totalChunks: 0,
          fileName: idempotencyKey,
          data,
        }),
      );
    } catch (error) {
      await dropChunks(this.db, stagedId).catch(() => undefined);
      throw error;
    }
    const small = isSmall(read);
    const upload = {
      uploadId,
      tokenId: token.id,
      fileName: idempotencyKey,
      totalChunks: read.totalChunks,
      bodyHash: read.hash,
    };
    const lease = await claimKeyUpload(this.db, upload, stagedId, address, this.leaseOptions(small));
    if (lease) return this.run(lease, small, address, false);
    // Another call with this key claimed it first: its row answers.
    await dropChunks(this.db, stagedId);
    const claimed = await keyUploadOf(this.db, uploadId, token.id);
    if (!claimed) throw new Error(`Upload ${uploadId} was claimed, then was gone.`);
    return this.repeat(token, uploadId, claimed, read, address);
  }

  /** Processes an upload this call holds: during the call when small, else in the background (202). */
  private async run(lease: Lease, small: boolean, address: string, repeated: boolean): Promise<ShipmentAnswer> {
    const { uploadId } = lease.upload;
    if (!small) {
      this.background.start(lease, address);
      return { status: 202, job: this.jobOf(uploadId), repeated };
    }
    try {
      return { status: 200, result: await completeUpload(this.db, lease, address), repeated };
    } catch (error) {
      // Too slow to renew: another instance took it over and finishes it.
      if (error instanceof LeaseLost) return { status: 202, job: this.jobOf(uploadId), repeated };
      if (error instanceof DomainError) throw refusalOf({ status: error.statusCode, detail: error.message });
      throw error;
    }
  }

  /** A call repeating an earlier one's Idempotency-Key: 422 for another body, else the earlier call's outcome. */
  private async repeat(
    token: TokenCaller,
    uploadId: string,
    row: KeyUploadRow,
    read: ReadBody,
    address: string,
  ): Promise<ShipmentAnswer> {
    if (row.body_hash !== read.hash) throw new UnprocessableContent('This Idempotency-Key was used with another body.');
    const small = isSmall(read);
    const deadline = Date.now() + (small ? REPEAT_WAIT_MS : 0);
    for (let current: KeyUploadRow | undefined = row; ; current = await keyUploadOf(this.db, uploadId, token.id)) {
      if (!current) throw new Error(`Upload ${uploadId} is gone.`);
      if (current.status === 'done')
        return { status: 200, result: JSON.parse(current.result!) as UploadResult, repeated: true };
      if (current.status === 'failed') {
        const failure = JSON.parse(current.result!) as UploadFailure;
        // A refusal of the body stands; a failure of the server's is run again, as a resent final chunk is.
        if (failure.status < 500) throw refusalOf(failure);
        const lease = await retryUpload(this.db, uploadId, address, this.leaseOptions(small));
        if (lease) return this.run(lease, small, address, true);
      } else {
        // Its holder died (its lease ran out): this call takes it over, as a resent chunk does.
        const lease = await takeOver(this.db, uploadId, this.leaseOptions(small));
        if (lease) return this.run(lease, small, address, true);
      }
      if (Date.now() >= deadline) return { status: 202, job: this.jobOf(uploadId), repeated: true };
      await sleep(REPEAT_POLL_MS);
    }
  }

  /** A shipment's state, for its key only (404 for another key's or an unknown id). */
  async state(token: TokenCaller, id: string): Promise<ShipmentState> {
    const row = await keyUploadOf(this.db, id, token.id);
    if (!row) throw new NotFound('No shipment of this key has that id.');
    if (row.status === 'done') return { id, status: 'done', result: JSON.parse(row.result!) as UploadResult };
    if (row.status === 'failed') return { id, status: 'failed', error: JSON.parse(row.result!) as UploadFailure };
    return { id, status: 'processing' };
  }
}
