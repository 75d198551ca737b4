// One chunk received (docs/csv.md#shipment-upload): the call that brings the last missing chunk
// stores the rows and answers the result. An upload left 'processing' by an instance that died is
// taken over by the next chunk sent for it (docs/operations.md#upload-leases).
import type { Db } from '../db/schema';
import { BadRequest, Conflict, Forbidden } from '../http-errors';
import { completeUpload } from './ingest';
import { LeaseLost, takeOver, type Lease } from './lease';
import {
  claimUpload,
  earlierChunk,
  expireUploads,
  receivedIndexes,
  retryUpload,
  storeChunk,
  uploadOf,
  type Chunk,
} from './repository';

const received = (chunk: Chunk) => ({
  message: `Chunk ${chunk.chunkIndex + 1} of ${chunk.totalChunks} received.`,
  chunk_index: chunk.chunkIndex,
});

function checkSameUpload(owner: { user_id: number | null; total_chunks: number }, userId: number, chunk: Chunk) {
  if (owner.user_id !== userId) throw new Forbidden('This upload_id belongs to an upload of another user.');
  if (owner.total_chunks !== chunk.totalChunks) {
    throw new BadRequest(
      'total_chunks',
      `total_chunks is ${chunk.totalChunks}, but earlier chunks of this upload said ${owner.total_chunks}.`,
    );
  }
}

/** Runs the ingest of an upload this call holds and answers its result. */
async function ingest(db: Db, lease: Lease, address: string) {
  try {
    return await completeUpload(db, lease, address);
  } catch (error) {
    // Too slow to renew, another instance took it over: it answers a later resend.
    if (error instanceof LeaseLost) throw new Conflict('This upload is being processed.');
    throw error;
  }
}

/** An upload being processed: 409 while its lease is live; once it ran out, this call takes it over. */
async function takeOverOrWait(db: Db, uploadId: string, address: string) {
  const lease = await takeOver(db, uploadId);
  if (!lease) throw new Conflict('This upload is being processed.');
  return ingest(db, lease, address);
}

/** The answer of an upload another call claimed: its result once done, else as takeOverOrWait. */
async function answerClaimed(db: Db, uploadId: string, address: string) {
  const upload = await uploadOf(db, uploadId);
  if (upload?.status === 'done') return JSON.parse(upload.result!);
  return takeOverOrWait(db, uploadId, address);
}

/** All chunks are present: process them, unless another call already does or did. */
async function complete(db: Db, userId: number, chunk: Chunk, address: string) {
  const lease = await claimUpload(db, userId, chunk, address);
  return lease ? ingest(db, lease, address) : answerClaimed(db, chunk.uploadId, address);
}

/** A failed upload's chunk sent again: it runs again, unless another call already retries it. */
async function retry(db: Db, uploadId: string, address: string) {
  const lease = await retryUpload(db, uploadId, address);
  return lease ? ingest(db, lease, address) : answerClaimed(db, uploadId, address);
}

/**
 * Stores the chunk of a call from `address`; the call that brings the last missing chunk answers
 * the result (and its ingest's audit entry names that address).
 */
export async function receiveChunk(db: Db, userId: number, chunk: Chunk, address: string) {
  const isLast = chunk.chunkIndex === chunk.totalChunks - 1;

  const upload = await uploadOf(db, chunk.uploadId);
  if (upload) {
    checkSameUpload(upload, userId, chunk);
    if (upload.status === 'processing') return takeOverOrWait(db, chunk.uploadId, address);
    if (upload.status === 'failed' && isLast) return retry(db, chunk.uploadId, address);
    // Already complete (or failed): a chunk sent again changes nothing; the final one gets the result again.
    return isLast ? JSON.parse(upload.result!) : received(chunk);
  }
  const earlier = await earlierChunk(db, chunk.uploadId);
  if (earlier) checkSameUpload(earlier, userId, chunk);
  // A new upload starting is a good moment to drop abandoned ones.
  if (chunk.chunkIndex === 0) await expireUploads(db);

  await storeChunk(db, userId, chunk);
  const indexes = await receivedIndexes(db, chunk.uploadId);
  if (indexes.length === chunk.totalChunks) return complete(db, userId, chunk, address);
  if (isLast) {
    const present = new Set(indexes);
    const missing = Array.from({ length: chunk.totalChunks }, (_, index) => index).filter(
      (index) => !present.has(index),
    );
    throw new BadRequest(
      'chunk_index',
      `The upload is incomplete: ${missing.length > 1 ? `chunks ${missing.join(', ')} are` : `chunk ${missing[0]} is`} missing. Send ${missing.length > 1 ? 'them' : 'it'} to complete the upload.`,
      { missing_chunks: missing },
    );
  }
  return received(chunk);
}
