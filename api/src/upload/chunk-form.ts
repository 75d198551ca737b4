// The form of one chunk call (docs/csv.md#shipment-upload): upload_id, total_chunks and
// chunk_index as fields, then the file. The fields are read as the multipart stream arrives,
// before the file part, so they are checked here rather than by a schema (Fastify validates a
// body it has parsed whole).
import type { Multipart, MultipartFile } from '@fastify/multipart';
import {
  isCsvFileName,
  MAX_UPLOAD_CHUNKS,
  NOT_A_CSV_FILE,
  UPLOAD_CHUNK_BYTES,
  UPLOAD_TOO_LARGE,
} from '@veritas/shared/domain';
import { BadRequest, DomainError, PayloadTooLarge } from '../http-errors';
import { isWellFormedText, notWellFormed } from '../schemas';
import type { Chunk } from './repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Any number of digits: a total_chunks over the limit is refused by the limit (413) however long it is.
const INTEGER = /^\d+$/;
const MAX_FILE_NAME_LENGTH = 1024;
const TOO_MANY_PARTS = 'Too many form parts: send upload_id, chunk_index, total_chunks and one file.';

/** Which of the multipart plugin's errors a read ran into (its error classes live on the instance). */
export interface MultipartLimits {
  tooManyParts(error: unknown): boolean;
  fileTooLarge(error: unknown): boolean;
}

function integerField(fields: Map<string, string>, name: string): number {
  const value = fields.get(name);
  if (value === undefined) throw new BadRequest(name, `${name} is required (a form field sent before the file).`);
  if (!INTEGER.test(value)) throw new BadRequest(name, `${name} must be a whole number, not '${value.slice(0, 20)}'.`);
  return Number(value);
}

/**
 * The chunk of a call, its fields checked; `parts` is null when the body is not multipart. Only
 * fields sent before the file count, and nothing may follow the file: the body is read to its
 * end, so a body cut off after the file is refused too.
 */
export async function readChunk(parts: AsyncIterable<Multipart> | null, limits: MultipartLimits): Promise<Chunk> {
  if (!parts) throw new BadRequest('file', 'Send the chunk as multipart/form-data.');
  const fields = new Map<string, string>();
  let chunk: Chunk | undefined;
  try {
    for await (const part of parts) {
      if (chunk) throw new PayloadTooLarge(TOO_MANY_PARTS);
      if (part.type === 'field') {
        if (fields.has(part.fieldname))
          throw new BadRequest(part.fieldname, `${part.fieldname} is sent more than once.`);
        fields.set(part.fieldname, String(part.value).trim());
        continue;
      }
      chunk = await readFile(part, fields, limits);
    }
  } catch (error) {
    if (limits.tooManyParts(error)) throw new PayloadTooLarge(TOO_MANY_PARTS);
    if (error instanceof DomainError || limits.fileTooLarge(error)) throw error;
    // The multipart parser's own errors (a body cut off, no boundary where one is due) are plain
    // Errors: the body is malformed, which is the caller's to fix.
    throw new BadRequest(
      'file',
      'The multipart body is malformed or cut off: send the three fields and the file again.',
    );
  }
  if (!chunk) throw new BadRequest('file', 'The file part is missing.');
  return chunk;
}

async function readFile(part: MultipartFile, fields: Map<string, string>, limits: MultipartLimits): Promise<Chunk> {
  const uploadId = fields.get('upload_id');
  if (uploadId === undefined)
    throw new BadRequest('upload_id', 'upload_id is required (a form field sent before the file).');
  if (!UUID.test(uploadId)) throw new BadRequest('upload_id', 'upload_id must be a UUID.');
  const totalChunks = integerField(fields, 'total_chunks');
  if (totalChunks < 1) throw new BadRequest('total_chunks', 'total_chunks must be at least 1.');
  if (totalChunks > MAX_UPLOAD_CHUNKS) throw new PayloadTooLarge(UPLOAD_TOO_LARGE);
  const chunkIndex = integerField(fields, 'chunk_index');
  if (chunkIndex >= totalChunks) {
    throw new BadRequest(
      'chunk_index',
      `chunk_index must be between 0 and ${totalChunks - 1} (total_chunks is ${totalChunks}).`,
    );
  }
  if (!isCsvFileName(part.filename)) throw new BadRequest('file', NOT_A_CSV_FILE);
  // The name is kept with the upload and in the audit trail, as any text the API takes.
  if (!isWellFormedText(part.filename)) throw new BadRequest('file', notWellFormed('file'));
  if (part.filename.length > MAX_FILE_NAME_LENGTH)
    throw new BadRequest('file', `Text may be at most ${MAX_FILE_NAME_LENGTH} characters.`);

  let data: Buffer;
  try {
    data = await part.toBuffer();
  } catch (error) {
    if (limits.fileTooLarge(error)) {
      throw new PayloadTooLarge(`A chunk may be at most ${UPLOAD_CHUNK_BYTES.toLocaleString('en-US')} bytes (1 MiB).`);
    }
    throw error;
  }
  return { uploadId: uploadId.toLowerCase(), chunkIndex, totalChunks, fileName: part.filename, data };
}
