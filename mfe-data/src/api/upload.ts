// Sending a shipment CSV to api/upload/ (docs/csv.md#sending-in-chunks): 1 MiB chunks, one request at a time,
// all under one upload id; the final chunk's answer is the upload's result.
import { http, httpStatus, RECORDS_KEY, type UploadResult } from '@veritas/shared';
import { UPLOAD_CHUNK_BYTES } from '@veritas/shared/domain';
import { sleep } from '@veritas/shared/retry-after';
import { useMutation, useQueryClient } from '@veritas/shared/query';

/** Waits before the 1st, 2nd and 3rd retry of a chunk that failed on the way. */
export const RETRY_DELAYS_MS: readonly number[] = [500, 1000, 2000];

// No answer at all (0: network failure), or a proxy or load balancer that could not reach a
// server instance: the same chunk may succeed later.
const TRANSIENT_STATUSES = new Set([0, 502, 503, 504]);

/**
 * A resent final chunk whose first send did arrive finds the server still processing the upload
 * (409): that is progress, not failure. It is sent again every 2 s, for up to 5 minutes, until
 * the server answers with the result it keeps for a repeated final chunk.
 */
export const PROCESSING_POLL_MS = 2000;
export const PROCESSING_POLLS = 150;

export interface ChunkedUploadOptions {
  /** After each chunk the server accepted. */
  onProgress?(acceptedChunks: number, totalChunks: number): void;
  /** How long to wait before each retry; its length is the number of retries. */
  retryDelaysMs?: readonly number[];
  /** Injectable so tests do not wait. */
  wait?(ms: number): Promise<void>;
}

/** Number of chunks of a file of `size` bytes (an empty file has none and cannot be sent). */
export function chunkCount(size: number): number {
  return Math.ceil(size / UPLOAD_CHUNK_BYTES);
}

// crypto.randomUUID exists only in secure contexts (https, localhost); a console served over plain
// http from another host still needs an id, so it builds the same random (v4) UUID itself.
export function newUploadId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** No answer at all (network) or a gateway error; any other failure would fail again. */
function isTransient(error: unknown): boolean {
  const status = httpStatus(error);
  return status !== undefined && TRANSIENT_STATUSES.has(status);
}

function chunkForm(file: File, uploadId: string, index: number, total: number): FormData {
  const form = new FormData();
  // The server reads the fields before the file part, so they must come first.
  form.append('upload_id', uploadId);
  form.append('chunk_index', String(index));
  form.append('total_chunks', String(total));
  form.append('file', file.slice(index * UPLOAD_CHUNK_BYTES, (index + 1) * UPLOAD_CHUNK_BYTES), file.name);
  return form;
}

// The shared client's default Content-Type is JSON, and axios turns FormData into JSON under it.
// Naming multipart keeps the FormData; in a browser axios then drops the header so that the
// browser writes it with the boundary.
const MULTIPART = { headers: { 'Content-Type': 'multipart/form-data' } };

async function sendChunk(
  form: FormData,
  retryDelaysMs: readonly number[],
  wait: (ms: number) => Promise<void>,
): Promise<unknown> {
  let retries = 0;
  let polls = 0;
  for (;;) {
    try {
      const { data } = await http.post<unknown>('api/upload/', form, MULTIPART);
      return data;
    } catch (error) {
      if (retries > 0 && httpStatus(error) === 409 && polls < PROCESSING_POLLS) {
        polls++;
        await wait(PROCESSING_POLL_MS);
        continue;
      }
      const delay = retryDelaysMs[retries++];
      if (delay === undefined || !isTransient(error)) throw error;
      await wait(delay);
    }
  }
}

const count = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;
const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

/** The final answer as an UploadResult (docs/csv.md#result); an answer without totals has complete lists. */
export function toUploadResult(body: unknown): UploadResult {
  const answer = (body && typeof body === 'object' ? body : {}) as Partial<Record<keyof UploadResult, unknown>>;
  const duplicates = list<UploadResult['duplicates'][number]>(answer.duplicates);
  const errors = list<UploadResult['errors'][number]>(answer.errors);
  return {
    message: typeof answer.message === 'string' ? answer.message : '',
    processed: count(answer.processed, 0),
    skipped: count(answer.skipped, 0),
    duplicates,
    errors,
    duplicates_total: count(answer.duplicates_total, duplicates.length),
    errors_total: count(answer.errors_total, errors.length),
  };
}

/**
 * Upload `file` chunk by chunk. A chunk that got no answer or a 502/503/504 is sent again after
 * each of `retryDelaysMs`; then, or on any other error, the upload fails with that error. A
 * resent chunk answered 409 (the upload is being processed) is polled as PROCESSING_POLL_MS says.
 */
export async function uploadInChunks(
  file: File,
  { onProgress, retryDelaysMs = RETRY_DELAYS_MS, wait = sleep }: ChunkedUploadOptions = {},
): Promise<UploadResult> {
  const total = chunkCount(file.size);
  if (total === 0) throw new Error('An empty file cannot be uploaded');
  const uploadId = newUploadId();
  let answer: unknown;
  for (let index = 0; index < total; index++) {
    answer = await sendChunk(chunkForm(file, uploadId, index, total), retryDelaysMs, wait);
    onProgress?.(index + 1, total);
  }
  return toUploadResult(answer);
}

/** uploadInChunks as a mutation: the records it stored change every list and figure read from them. */
export function useUpload() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: ChunkedUploadOptions['onProgress'] }) =>
      uploadInChunks(file, { onProgress }),
    onSuccess: () => void client.invalidateQueries({ queryKey: [RECORDS_KEY] }),
  });
}
