// Where chunked uploads live between calls: the database, so any server instance can take the
// next chunk (docs/csv.md#sending-in-chunks).
import type { UploadResult } from '@veritas/shared/domain';
import type { Kysely } from 'kysely';
import { recordAudit, tokenBy, userBy, type AuditBy, type NewAuditEntry } from '../audit/trail';
import { forEngine } from '../db/engines';
import type { Database, Db, UploadsTable } from '../db/schema';
import { nowIso } from '../db/schema';
import { shipmentEvent, writeEvents } from '../events/write';
import { postgresChunkRead } from './chunk-reads.postgres';
import { sqliteChunkRead } from './chunk-reads.sqlite';
import { LEASE_MS, Lease, LeaseLost, type LeaseOptions } from './lease';

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

/** Whose an upload is: a console user's, or an API key's (migration 023). */
type Owner = { user_id: number; token_id: null } | { user_id: null; token_id: number };

async function insertChunk(db: Db, owner: Owner, chunk: Chunk): Promise<void> {
  await db.kysely
    .insertInto('upload_chunks')
    .values({
      upload_id: chunk.uploadId,
      chunk_index: chunk.chunkIndex,
      total_chunks: chunk.totalChunks,
      ...owner,
      file_name: chunk.fileName,
      data: chunk.data,
      received_at: nowIso(),
    })
    .onConflict((oc) => oc.columns(['upload_id', 'chunk_index']).doNothing())
    .execute();
}

/** Stores a chunk; one already received is kept as it is. */
export const storeChunk = (db: Db, userId: number, chunk: Chunk): Promise<void> =>
  insertChunk(db, { user_id: userId, token_id: null }, chunk);

export async function receivedIndexes(db: Db, uploadId: string): Promise<number[]> {
  const rows = await db.kysely
    .selectFrom('upload_chunks')
    .select('chunk_index')
    .where('upload_id', '=', uploadId)
    .orderBy('chunk_index')
    .execute();
  return rows.map((row) => row.chunk_index);
}

/** Reads chunk `index` of an upload; null when it is missing (chunk-reads.postgres.ts, chunk-reads.sqlite.ts). */
export type ChunkRead = (db: Db, uploadId: string, index: number) => Promise<Buffer | null>;

/** The chunks of an upload in order, read one at a time so only one is in memory. */
export async function* chunkData(db: Db, uploadId: string, totalChunks: number): AsyncGenerator<Buffer> {
  const read = forEngine(db, { postgres: postgresChunkRead, sqlite: sqliteChunkRead });
  for (let index = 0; index < totalChunks; index++) {
    const data = await read(db, uploadId, index);
    if (data === null) throw new Error(`Chunk ${index} of upload ${uploadId} is missing.`);
    yield data;
  }
}

/**
 * An entry of the upload's (docs/audit.md#uploads), read in `trx` while its chunks are there: its
 * user (acting from `address`), the upload as target, and its file's name and size before
 * `details`. Written by recordAudit, last in the transaction (it takes the events' lock).
 */
async function uploadEntry(
  trx: Kysely<Database>,
  uploadId: string,
  address: string | null,
  entry: { action: 'upload.started' | 'upload.completed'; outcome: 'success' | 'failure'; details?: object },
): Promise<[AuditBy, NewAuditEntry]> {
  const upload = await trx
    .selectFrom('uploads as up')
    .leftJoin('users as u', 'u.id', 'up.user_id')
    .leftJoin('access_tokens as t', 't.id', 'up.token_id')
    .select(['up.file_name', 'u.id as user_id', 'u.username', 'u.role', 't.id as token_id', 't.label'])
    .where('up.upload_id', '=', uploadId)
    .executeTakeFirstOrThrow();
  const size = await trx
    .selectFrom('upload_chunks')
    .select((eb) => eb.fn.sum<number | string | null>(eb.fn('length', ['data'])).as('bytes'))
    .where('upload_id', '=', uploadId)
    .executeTakeFirst();
  const { user_id, username, role, token_id, label } = upload;
  return [
    token_id !== null
      ? tokenBy({ id: token_id, label: label! }, address)
      : userBy({ id: user_id!, username: username!, role: role! }, address),
    {
      action: entry.action,
      outcome: entry.outcome,
      target: { kind: 'upload', id: uploadId, label: upload.file_name },
      details: { file_name: upload.file_name, bytes: Number(size?.bytes ?? 0), ...entry.details },
    },
  ];
}

/**
 * `upload.started`, in the transaction that marks the upload 'processing': its rows are stored
 * only after it committed, so no row is ever stored under an upload the trail does not name, and
 * an entry that cannot be written leaves nothing processing (docs/audit.md#uploads).
 */
const recordStart = async (trx: Kysely<Database>, db: Db, uploadId: string, address: string | null) =>
  recordAudit(
    trx,
    db,
    ...(await uploadEntry(trx, uploadId, address, { action: 'upload.started', outcome: 'success' })),
  );

/**
 * Marks a complete upload as being processed and leases it to this instance (lease.ts), with its
 * `upload.started` entry. Only one caller wins; the others (a concurrent or later call with the
 * same final chunk) find the row and answer from it, or take it over once its lease runs out.
 * `address` is the client's whose call completed the chunks.
 */
export function claimUpload(
  db: Db,
  userId: number,
  chunk: Chunk,
  address: string | null = null,
  options: LeaseOptions = {},
): Promise<Lease | undefined> {
  const { uploadId, fileName, totalChunks } = chunk;
  return claim(db, { uploadId, fileName, totalChunks, user_id: userId, token_id: null }, address, options);
}

/** What a claim inserts: the upload, its owner, and (an API key's) its body's hash. */
type Claimed = Owner & { uploadId: string; fileName: string; totalChunks: number; bodyHash?: string };

async function claim(
  db: Db,
  claimed: Claimed,
  address: string | null,
  options: LeaseOptions,
  /** Done in the claim's transaction when it wins, before the entry. */
  won?: (trx: Kysely<Database>) => Promise<void>,
): Promise<Lease | undefined> {
  const { uploadId, fileName, totalChunks, user_id, token_id, bodyHash = null } = claimed;
  const createdAt = nowIso();
  const until = (options.clock ?? Date.now)() + LEASE_MS;
  const inserted = await db.transaction(async (trx) => {
    const row = await trx
      .insertInto('uploads')
      .values({
        upload_id: uploadId,
        user_id,
        token_id,
        body_hash: bodyHash,
        file_name: fileName,
        total_chunks: totalChunks,
        status: 'processing',
        result: null,
        created_at: createdAt,
        finished_at: null,
        lease_until_ms: until,
      })
      .onConflict((oc) => oc.column('upload_id').doNothing())
      .returning('upload_id')
      .executeTakeFirst();
    if (row === undefined) return false;
    await won?.(trx);
    await recordStart(trx, db, uploadId, address);
    return true;
  });
  if (!inserted) return undefined;
  return new Lease(db, { uploadId, totalChunks, createdAt, resumed: false }, until, options);
}

/**
 * An API key's upload (docs/integrations.md#shipments-in): its body is first stored as the chunks
 * of `stagedId`, a random id of its own, so that calls sending one Idempotency-Key at once never
 * mix their chunks; the call whose claim wins moves them to the upload, the others find the row.
 */
export interface KeyUpload {
  uploadId: string;
  tokenId: number;
  fileName: string;
  totalChunks: number;
  /** SHA-256 (hex) of the chunks' bytes. */
  bodyHash: string;
}

/** Stores a chunk of the body of an API key's call, under the id it is staged by. */
export const storeKeyChunk = (db: Db, tokenId: number, chunk: Chunk): Promise<void> =>
  insertChunk(db, { user_id: null, token_id: tokenId }, chunk);

/** Deletes an upload's chunks (a key's staged body its call no longer needs). */
export async function dropChunks(db: Db, uploadId: string): Promise<void> {
  await db.kysely.deleteFrom('upload_chunks').where('upload_id', '=', uploadId).execute();
}

/**
 * Claims an API key's upload as claimUpload does a console's, with the chunks staged as
 * `stagedId`: of calls claiming one upload at once, one inserts its row (the primary key) and takes
 * its staged chunks over in the same transaction; the others get undefined and drop theirs.
 */
export function claimKeyUpload(
  db: Db,
  upload: KeyUpload,
  stagedId: string,
  address: string | null = null,
  options: LeaseOptions = {},
): Promise<Lease | undefined> {
  const { uploadId, tokenId, fileName, totalChunks, bodyHash } = upload;
  const claimed: Claimed = { uploadId, fileName, totalChunks, bodyHash, user_id: null, token_id: tokenId };
  return claim(db, claimed, address, options, async (trx) => {
    // Chunks under its id without an upload are nobody's (an expired upload's).
    await trx.deleteFrom('upload_chunks').where('upload_id', '=', uploadId).execute();
    await trx
      .updateTable('upload_chunks')
      .set({ upload_id: uploadId, total_chunks: totalChunks })
      .where('upload_id', '=', stagedId)
      .execute();
  });
}

export type KeyUploadRow = Pick<UploadsTable, 'status' | 'result'> & { body_hash: string | null };

/** An API key's upload, if `tokenId` is its key's. */
export async function keyUploadOf(db: Db, uploadId: string, tokenId: number): Promise<KeyUploadRow | undefined> {
  return db.kysely
    .selectFrom('uploads')
    .select(['status', 'result', 'body_hash'])
    .where('upload_id', '=', uploadId)
    .where('token_id', '=', tokenId)
    .executeTakeFirst();
}

/**
 * Runs a failed upload again (its final chunk sent again): 'processing' under a new lease, with a
 * new `upload.started` entry. Of calls trying at once, one wins; the rows the failed run stored
 * count as stored (store-records.ts).
 */
export async function retryUpload(
  db: Db,
  uploadId: string,
  address: string | null = null,
  options: LeaseOptions = {},
): Promise<Lease | undefined> {
  const until = (options.clock ?? Date.now)() + LEASE_MS;
  const retried = await db.transaction(async (trx) => {
    const row = await trx
      .updateTable('uploads')
      .set({ status: 'processing', result: null, finished_at: null, lease_until_ms: until })
      .where('upload_id', '=', uploadId)
      .where('status', '=', 'failed')
      .returning(['total_chunks', 'created_at'])
      .executeTakeFirst();
    if (row) await recordStart(trx, db, uploadId, address);
    return row;
  });
  if (!retried) return undefined;
  const upload = { uploadId, totalChunks: retried.total_chunks, createdAt: retried.created_at, resumed: true };
  return new Lease(db, upload, until, options);
}

/** Ends the upload `lease` holds as `status`, keeping `result`; throws LeaseLost if another instance took it over. */
async function endUpload(
  trx: Kysely<Database>,
  lease: Lease,
  status: 'done' | 'failed',
  result: UploadResult | UploadFailure,
): Promise<void> {
  const { numUpdatedRows } = await trx
    .updateTable('uploads')
    .set({ status, result: JSON.stringify(result), finished_at: nowIso(), lease_until_ms: null })
    .where('upload_id', '=', lease.upload.uploadId)
    .where('status', '=', 'processing')
    .where('lease_until_ms', '=', lease.until)
    .executeTakeFirst();
  if (numUpdatedRows === 0n) throw new LeaseLost(lease.upload.uploadId);
}

/**
 * Keeps the result for a repeated final chunk and drops the chunks, if the lease is still this
 * run's: an instance that lost it leaves the upload to the one that took it over. The upload's
 * `upload.completed` entry (its user, the file, its size and counts) is written with it.
 */
export async function finishUpload(
  db: Db,
  lease: Lease,
  result: UploadResult,
  address: string | null = null,
): Promise<void> {
  const { uploadId } = lease.upload;
  await db.transaction(async (trx) => {
    await endUpload(trx, lease, 'done', result);
    // Read before the chunks go: the entry names the file's size.
    const completed = await uploadEntry(trx, uploadId, address, {
      action: 'upload.completed',
      outcome: 'success',
      details: {
        processed: result.processed,
        skipped: result.skipped,
        duplicates: result.duplicates_total,
        errors: result.errors_total,
      },
    });
    await trx.deleteFrom('upload_chunks').where('upload_id', '=', uploadId).execute();
    await recordAudit(trx, db, ...completed);
    // Last: the webhooks' shipment.ingested, in the transaction that finished the upload.
    await writeEvents(trx, db, [
      shipmentEvent({
        uploadId,
        fileName: completed[1].target!.label,
        stored: result.processed,
        duplicates: result.duplicates_total,
        refused: result.errors_total,
      }),
    ]);
  });
}

/** What a failed upload keeps as its result: the answer its call got. */
export interface UploadFailure {
  status: number;
  detail: string;
}

/**
 * Marks the upload this lease holds 'failed', keeping its chunks for a retry, with an
 * `upload.completed` entry of outcome failure. Should that entry be refused, the mark is written
 * alone: the upload's rows are named by its `upload.started` entry already, and an upload left
 * 'processing' would wait for a resend nobody may send. Throws LeaseLost if another instance took
 * it over.
 */
export async function failUpload(
  db: Db,
  lease: Lease,
  failure: UploadFailure,
  address: string | null = null,
): Promise<void> {
  const mark = (trx: Kysely<Database>) => endUpload(trx, lease, 'failed', failure);
  try {
    await db.transaction(async (trx) => {
      await mark(trx);
      const failed = await uploadEntry(trx, lease.upload.uploadId, address, {
        action: 'upload.completed',
        outcome: 'failure',
        details: { status: failure.status, message: failure.detail },
      });
      await recordAudit(trx, db, ...failed);
    });
  } catch (error) {
    if (error instanceof LeaseLost) throw error;
    await db.transaction(mark);
  }
}

export async function expireUploads(db: Db): Promise<void> {
  const cutoff = new Date(Date.now() - UPLOAD_TTL_MS).toISOString();
  await db.kysely.deleteFrom('upload_chunks').where('received_at', '<', cutoff).execute();
  await db.kysely.deleteFrom('uploads').where('created_at', '<', cutoff).execute();
}
