// COPY … FROM STDIN on PostgreSQL: rows sent as text in the COPY format, the engine's bulk path
// (no statement per row, the heap filled a page at a time). Used by the upload's batches
// (src/upload/store-records.ts) and the bulk loaders of records (seed/volume-data.ts) and of the
// audit trail (bench/audit-volume.ts).
import { once } from 'node:events';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

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
