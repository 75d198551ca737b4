// api/upload/: the chunked shipment-CSV upload (docs/csv.md#shipment-upload). One call
// per chunk; the call that brings the last missing chunk stores the rows and answers the result.
// An upload left 'processing' by an instance that died is taken over by the next chunk sent for
// it, or by this instance's sweeper (docs/operations.md#upload-leases).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import multipart, { type MultipartFile } from '@fastify/multipart';
import { UploadAnswer, UploadForm } from '@veritas/shared/domain';
import { requireRole } from '../plugins/authentication';
import { BadRequest, Conflict, Forbidden, PayloadTooLarge } from '../errors';
import { canUpload } from '../roles';
import { completeUpload } from '../upload/ingest';
import { LeaseLost, takeOver, type Lease } from '../upload/lease';
import {
  CHUNK_BYTES,
  MAX_CHUNKS,
  claimUpload,
  earlierChunk,
  expireUploads,
  receivedIndexes,
  storeChunk,
  uploadOf,
  type Chunk,
} from '../upload/store';
import { UploadSweeper } from '../upload/sweeper';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTEGER = /^\d{1,9}$/;

// The form fields are read as the multipart stream arrives, before the file part, so they are
// checked here rather than by a schema (Fastify validates a body it has parsed whole).
function integerField(fields: Map<string, string>, name: string): number {
  const value = fields.get(name);
  if (value === undefined) throw new BadRequest(name, `${name} is required (a form field sent before the file).`);
  if (!INTEGER.test(value)) throw new BadRequest(name, `${name} must be a whole number, not '${value.slice(0, 20)}'.`);
  return Number(value);
}

export const uploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  // Not awaited at start: the first sweep may ingest a large upload while the server already serves.
  const sweeper = new UploadSweeper(db, app.log);
  app.addHook('onReady', async () => sweeper.start());
  // After the requests under way have finished (their ingests too), before the database closes.
  app.addHook('onClose', () => sweeper.stop());
  // Only this scope parses multipart bodies. The three small fields come before the one file.
  await app.register(multipart, { limits: { files: 1, fileSize: CHUNK_BYTES, fields: 8, fieldSize: 256, parts: 9 } });

  /** The chunk of this call, its fields checked. Only fields sent before the file count. */
  async function readChunk(request: FastifyRequest): Promise<Chunk> {
    if (!request.isMultipart()) throw new BadRequest('file', 'Send the chunk as multipart/form-data.');
    const fields = new Map<string, string>();
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (fields.has(part.fieldname))
            throw new BadRequest(part.fieldname, `${part.fieldname} is sent more than once.`);
          fields.set(part.fieldname, String(part.value).trim());
          continue;
        }
        return await readFile(part, fields);
      }
    } catch (error) {
      const { FieldsLimitError, FilesLimitError, PartsLimitError } = app.multipartErrors;
      if (error instanceof FieldsLimitError || error instanceof FilesLimitError || error instanceof PartsLimitError) {
        throw new PayloadTooLarge('Too many form parts: send upload_id, chunk_index, total_chunks and one file.');
      }
      throw error;
    }
    throw new BadRequest('file', 'The file part is missing.');
  }

  async function readFile(part: MultipartFile, fields: Map<string, string>): Promise<Chunk> {
    const uploadId = fields.get('upload_id');
    if (uploadId === undefined)
      throw new BadRequest('upload_id', 'upload_id is required (a form field sent before the file).');
    if (!UUID.test(uploadId)) throw new BadRequest('upload_id', 'upload_id must be a UUID.');
    const totalChunks = integerField(fields, 'total_chunks');
    if (totalChunks < 1) throw new BadRequest('total_chunks', 'total_chunks must be at least 1.');
    if (totalChunks > MAX_CHUNKS) throw new PayloadTooLarge(`File is too large: the limit is ${MAX_CHUNKS} MB.`);
    const chunkIndex = integerField(fields, 'chunk_index');
    if (chunkIndex >= totalChunks) {
      throw new BadRequest(
        'chunk_index',
        `chunk_index must be between 0 and ${totalChunks - 1} (total_chunks is ${totalChunks}).`,
      );
    }
    if (!/\.csv$/i.test(part.filename)) throw new BadRequest('file', 'Only CSV files are accepted');

    let data: Buffer;
    try {
      data = await part.toBuffer();
    } catch (error) {
      if (error instanceof app.multipartErrors.RequestFileTooLargeError) {
        throw new PayloadTooLarge(`A chunk may be at most ${CHUNK_BYTES.toLocaleString('en-US')} bytes (1 MiB).`);
      }
      throw error;
    }
    return { uploadId: uploadId.toLowerCase(), chunkIndex, totalChunks, fileName: part.filename, data };
  }

  const received = (chunk: Chunk) => ({
    message: `Chunk ${chunk.chunkIndex + 1} of ${chunk.totalChunks} received.`,
    chunk_index: chunk.chunkIndex,
  });

  function checkSameUpload(owner: { user_id: number; total_chunks: number }, userId: number, chunk: Chunk) {
    if (owner.user_id !== userId) throw new Forbidden('This upload_id belongs to an upload of another user.');
    if (owner.total_chunks !== chunk.totalChunks) {
      throw new BadRequest(
        'total_chunks',
        `total_chunks is ${chunk.totalChunks}, but earlier chunks of this upload said ${owner.total_chunks}.`,
      );
    }
  }

  /** Runs the ingest of an upload this call holds and answers its result. */
  async function ingest(lease: Lease) {
    try {
      return await completeUpload(db, lease);
    } catch (error) {
      // Too slow to renew, another instance took it over: it answers a later resend.
      if (error instanceof LeaseLost) throw new Conflict('This upload is being processed.');
      throw error;
    }
  }

  /** An upload being processed: 409 while its lease is live; once it ran out, this call takes it over. */
  async function takeOverOrWait(uploadId: string) {
    const lease = await takeOver(db, uploadId);
    if (!lease) throw new Conflict('This upload is being processed.');
    return ingest(lease);
  }

  /** All chunks are present: process them, unless another call already does or did. */
  async function complete(userId: number, chunk: Chunk) {
    const lease = await claimUpload(db, userId, chunk);
    if (lease) return ingest(lease);
    const upload = await uploadOf(db, chunk.uploadId);
    if (upload?.status === 'done') return JSON.parse(upload.result!);
    return takeOverOrWait(chunk.uploadId);
  }

  /** Stores the chunk of this call; the call that brings the last missing chunk answers the result. */
  async function takeChunk(request: FastifyRequest) {
    const { user } = request;
    const chunk = await readChunk(request);
    const isLast = chunk.chunkIndex === chunk.totalChunks - 1;

    const upload = await uploadOf(db, chunk.uploadId);
    if (upload) {
      checkSameUpload(upload, user.id, chunk);
      if (upload.status === 'processing') return takeOverOrWait(chunk.uploadId);
      // Already complete: a chunk sent again changes nothing; the final one gets the result again.
      return isLast ? JSON.parse(upload.result!) : received(chunk);
    }
    const earlier = await earlierChunk(db, chunk.uploadId);
    if (earlier) checkSameUpload(earlier, user.id, chunk);
    // A new upload starting is a good moment to drop abandoned ones.
    if (chunk.chunkIndex === 0) await expireUploads(db);

    await storeChunk(db, user.id, chunk);
    const indexes = await receivedIndexes(db, chunk.uploadId);
    if (indexes.length === chunk.totalChunks) return complete(user.id, chunk);
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

  app.post(
    '/api/upload/',
    {
      // The console shows a failed upload's `error` field (docs/errors.md#upload). The multipart
      // parts are read as a stream (readChunk), so the form is documented, not validated.
      config: { errorField: 'error', documentedBody: UploadForm },
      preValidation: requireRole(canUpload, 'Only admins can upload shipment files.'),
      schema: {
        tags: ['devices'],
        summary: 'Upload one chunk of a shipment CSV; the last missing chunk answers the result',
        consumes: ['multipart/form-data'],
        response: { 200: UploadAnswer },
      },
    },
    (request) => takeChunk(request),
  );
};
