// The form of one chunk call (docs/csv.md#shipment-upload): upload_id, total_chunks and
// chunk_index as fields, then the file. The fields are read as the multipart stream arrives,
// before the file part, so they are checked here rather than by a schema (Fastify validates a
// body it has parsed whole).
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { BadRequest, PayloadTooLarge } from '../http-errors';
import { CHUNK_BYTES, MAX_CHUNKS, type Chunk } from './repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTEGER = /^\d{1,9}$/;

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
 * fields sent before the file count.
 */
export async function readChunk(parts: AsyncIterable<Multipart> | null, limits: MultipartLimits): Promise<Chunk> {
  if (!parts) throw new BadRequest('file', 'Send the chunk as multipart/form-data.');
  const fields = new Map<string, string>();
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (fields.has(part.fieldname))
          throw new BadRequest(part.fieldname, `${part.fieldname} is sent more than once.`);
        fields.set(part.fieldname, String(part.value).trim());
        continue;
      }
      return await readFile(part, fields, limits);
    }
  } catch (error) {
    if (limits.tooManyParts(error)) {
      throw new PayloadTooLarge('Too many form parts: send upload_id, chunk_index, total_chunks and one file.');
    }
    throw error;
  }
  throw new BadRequest('file', 'The file part is missing.');
}

async function readFile(part: MultipartFile, fields: Map<string, string>, limits: MultipartLimits): Promise<Chunk> {
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
    if (limits.fileTooLarge(error)) {
      throw new PayloadTooLarge(`A chunk may be at most ${CHUNK_BYTES.toLocaleString('en-US')} bytes (1 MiB).`);
    }
    throw error;
  }
  return { uploadId: uploadId.toLowerCase(), chunkIndex, totalChunks, fileName: part.filename, data };
}
