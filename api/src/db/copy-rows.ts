// COPY … FROM STDIN on PostgreSQL: rows sent as text in the COPY format, the engine's bulk path
// (no statement per row, the heap filled a page at a time). Used by the upload's batches
// (src/upload/store-records.ts) and the bulk loaders of records (seed/volume-data.ts) and of the
// audit trail (bench/audit-volume.ts). And COPY … TO STDOUT in binary form, to read one bytea value
// as the bytes it holds (the upload's chunks, src/upload/repository.ts).
import { once } from 'node:events';
import type { PoolClient } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

/** PostgreSQL's error code for a row breaking a unique index (COPY fails as a whole on it). */
export const UNIQUE_VIOLATION = '23505';

/** COPY text format: tab-separated, \N for null, backslash escapes. */
function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') return String(value);
  const text = String(value);
  return /[\\\t\n\r]/.test(text)
    ? text.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!)
    : text;
}

/** Lines of COPY text per write to the stream. */
const LINES_PER_WRITE = 5000;

/**
 * COPY of `rows` (each the values of `columns`, in order) into `table`, as a stream; `progress`
 * is told how many were sent. Fails (the transaction with it) as the statement fails.
 */
export async function copyRows(
  client: PoolClient,
  table: string,
  columns: readonly string[],
  rows: Iterator<readonly unknown[]>,
  progress: (sent: number) => void = () => undefined,
): Promise<void> {
  const stream = client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`));
  const failed = once(stream, 'error').then(([error]) => Promise.reject(error as Error));
  failed.catch(() => undefined);
  let sent = 0;
  let next = rows.next();
  while (!next.done) {
    const lines: string[] = [];
    while (!next.done && lines.length < LINES_PER_WRITE) {
      lines.push(next.value.map(copyValue).join('\t'));
      next = rows.next();
    }
    sent += lines.length;
    if (!stream.write(`${lines.join('\n')}\n`)) await Promise.race([once(stream, 'drain'), failed]);
    progress(sent);
  }
  stream.end();
  await Promise.race([once(stream, 'finish'), failed]);
}

/** The start of COPY's binary format: a signature, then flags and the header extension's length (int32 each). */
const BINARY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * The one value of the first row `select` answers, as bytes (null: no row, or a null value), read
 * by COPY … TO STDOUT in binary form. A query's answer carries a bytea as hex text, twice its size,
 * which the driver decodes back into bytes (node-pg reads every value as text): for the upload's
 * 1 MiB chunks that cost the server five times the CPU (api/README.md#upload). The format is read
 * here rather than by a library: for one field it is a header, a field count, a length and the bytes.
 */
export async function copyOneValue(client: PoolClient, select: string): Promise<Buffer | null> {
  const parts: Buffer[] = [];
  for await (const part of client.query(copyTo(`copy (${select}) to stdout with (format binary)`))) {
    parts.push(part as Buffer);
  }
  const copied = Buffer.concat(parts);
  if (!copied.subarray(0, BINARY_SIGNATURE.length).equals(BINARY_SIGNATURE)) {
    throw new Error('COPY answered in a form other than its binary format');
  }
  const row = BINARY_SIGNATURE.length + 8 + copied.readInt32BE(BINARY_SIGNATURE.length + 4);
  // A field count of -1 is the trailer: no row.
  if (copied.readInt16BE(row) === -1) return null;
  const length = copied.readInt32BE(row + 2);
  return length === -1 ? null : copied.subarray(row + 6, row + 6 + length);
}
