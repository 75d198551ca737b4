// Where chunked uploads live between calls: the database, so any server instance can take the
// next chunk (docs/csv.md#sending-in-chunks).
import type { UploadResult } from '@veritas/shared/domain';
import { sql } from 'kysely';
import { recordAudit, userBy } from '../audit/trail';
import { copyOneValue } from '../db/copy-rows';
import type { Db, UploadsTable } from '../db/schema';
import { nowIso } from '../db/schema';
import { LEASE_MS, Lease, LeaseLost, type LeaseOptions } from './lease';

/** Largest chunk accepted (docs/csv.md#sending-in-chunks: the console sends 1 MiB chunks). */
export const CHUNK_BYTES = 1_048_576;
/** Largest file: 100 chunks, 100 MiB. */
export const MAX_CHUNKS = 100;
/** Unfinished uploads, and the results of finished ones, are kept this long. */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

export interface Chunk {
  uploadId: string;
  chunkIndex: number;
  totalChunks: number;
  fileName: string;
  data: Buffer;
}

export type Upload = Pick<UploadsTable, 'user_id' | 'total_chunks' | 'status' | 'result'>;

export async function uploadOf(db: Db, uploadId: string): Promise<Upload | undefined> {
  return db.kysely
    .selectFrom('uploads')
    .select(['user_id', 'total_chunks', 'status', 'result'])
    .where('upload_id', '=', uploadId)
    .executeTakeFirst();
}

/** Owner and chunk count as given by the chunks already received, if any. */
export async function earlierChunk(db: Db, uploadId: string) {
  return db.kysely
    .selectFrom('upload_chunks')
    .select(['user_id', 'total_chunks'])
    .where('upload_id', '=', uploadId)
    .limit(1)
    .executeTakeFirst();
}

/** Stores a chunk; one already received is kept as it is. */
export async function storeChunk(db: Db, userId: number, chunk: Chunk): Promise<void> {
  await db.kysely
    .insertInto('upload_chunks')
    .values({
      upload_id: chunk.uploadId,
      chunk_index: chunk.chunkIndex,
      total_chunks: chunk.totalChunks,
      user_id: userId,
      file_name: chunk.fileName,
      data: chunk.data,
      received_at: nowIso(),
    })
    .onConflict((oc) => oc.columns(['upload_id', 'chunk_index']).doNothing())
    .execute();
}

export async function receivedIndexes(db: Db, uploadId: string): Promise<number[]> {
  const rows = await db.kysely
    .selectFrom('upload_chunks')
    .select('chunk_index')
    .where('upload_id', '=', uploadId)
    .orderBy('chunk_index')
    .execute();
  return rows.map((row) => row.chunk_index);
}

/** The chunks of an upload in order, read one at a time so only one is in memory. */
export async function* chunkData(db: Db, uploadId: string, totalChunks: number): AsyncGenerator<Buffer> {
  for (let index = 0; index < totalChunks; index++) {
    if (db.engine === 'sqlite') {
      const { data } = await db.kysely
        .selectFrom('upload_chunks')
        .select('data')
        .where('upload_id', '=', uploadId)
        .where('chunk_index', '=', index)
        .executeTakeFirstOrThrow();
      yield data;
      continue;
    }
    // By COPY, as the bytes stored (copy-rows.ts); in a transaction of its own, which is tried once
    // more on a fresh connection should its connection fail (a database restart).
    const data = await db.clientTransaction!((client) =>
      copyOneValue(
        client,
        `select data from upload_chunks where upload_id = ${client.escapeLiteral(uploadId)} and chunk_index = ${index}`,
      ),
    );
    if (data === null) throw new Error(`Chunk ${index} of upload ${uploadId} is missing.`);
    yield data;
  }
}

/**
 * Marks a complete upload as being processed and leases it to this instance (lease.ts). Only one
 * caller wins; the others (a concurrent or later call with the same final chunk) find the row and
 * answer from it, or take it over once its lease runs out.
 */
export async function claimUpload(
  db: Db,
  userId: number,
  chunk: Chunk,
  options: LeaseOptions = {},
): Promise<Lease | undefined> {
  const createdAt = nowIso();
  const until = (options.clock ?? Date.now)() + LEASE_MS;
  const claimed = await db.kysely
    .insertInto('uploads')
    .values({
      upload_id: chunk.uploadId,
      user_id: userId,
      file_name: chunk.fileName,
      total_chunks: chunk.totalChunks,
      status: 'processing',
      result: null,
      created_at: createdAt,
      finished_at: null,
      lease_until_ms: until,
    })
    .onConflict((oc) => oc.column('upload_id').doNothing())
    .returning('upload_id')
    .executeTakeFirst();
  if (claimed === undefined) return undefined;
  const upload = { uploadId: chunk.uploadId, totalChunks: chunk.totalChunks, createdAt, resumed: false };
  return new Lease(db, upload, until, options);
}

/**
 * Keeps the result for a repeated final chunk and drops the chunks, if the lease is still this
 * run's: an instance that lost it leaves the upload to the one that took it over. The upload's
 * audit entry (its user, the file, its size and counts) is written with it.
 */
export async function finishUpload(
  db: Db,
  lease: Lease,
  result: UploadResult,
  address: string | null = null,
): Promise<void> {
  const { uploadId } = lease.upload;
  await db.transaction(async (trx) => {
    const { numUpdatedRows } = await trx
      .updateTable('uploads')
      .set({ status: 'done', result: JSON.stringify(result), finished_at: nowIso(), lease_until_ms: null })
      .where('upload_id', '=', uploadId)
      .where('status', '=', 'processing')
      .where('lease_until_ms', '=', lease.until)
      .executeTakeFirst();
    if (numUpdatedRows === 0n) throw new LeaseLost(uploadId);
    const upload = await trx
      .selectFrom('uploads as up')
      .innerJoin('users as u', 'u.id', 'up.user_id')
      .select(['up.file_name', 'u.id', 'u.username', 'u.role'])
      .where('up.upload_id', '=', uploadId)
      .executeTakeFirstOrThrow();
    const size = await trx
      .selectFrom('upload_chunks')
      .select(sql<number | string | null>`sum(length(data))`.as('bytes'))
      .where('upload_id', '=', uploadId)
      .executeTakeFirst();
    await trx.deleteFrom('upload_chunks').where('upload_id', '=', uploadId).execute();
    await recordAudit(trx, db, userBy(upload, address), {
      action: 'upload.completed',
      outcome: 'success',
      target: { kind: 'upload', id: uploadId, label: upload.file_name },
      details: {
        file_name: upload.file_name,
        bytes: Number(size?.bytes ?? 0),
        processed: result.processed,
        skipped: result.skipped,
        duplicates: result.duplicates_total,
        errors: result.errors_total,
      },
    });
  });
}

export async function expireUploads(db: Db): Promise<void> {
  const cutoff = new Date(Date.now() - UPLOAD_TTL_MS).toISOString();
  await db.kysely.deleteFrom('upload_chunks').where('received_at', '<', cutoff).execute();
  await db.kysely.deleteFrom('uploads').where('created_at', '<', cutoff).execute();
}
