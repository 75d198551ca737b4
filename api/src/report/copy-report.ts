// PostgreSQL renders the report itself: COPY (…) TO STDOUT in CSV form, a slice of the range at a
// time on each of two connections, streamed to the answer as the client reads it (pg-copy-streams
// reads a connection only when asked for more).
import type { Readable } from 'node:stream';
import type { Pool, PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Db } from '../db/schema';
import type { TimeRange } from './dates';
import { beforeRange, reportCopyQuery, sliceEndQuery, type ReportKey } from './rows';

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

/**
 * COPY ends each CSV record with LF, the report's lines end with CRLF. An LF that is part of a
 * cell lies inside quotes, that is after an odd number of quotes in its record (a quote inside a
 * cell is doubled), so the converter follows the quotes from chunk to chunk.
 */
export function crlfRecordEnds() {
  let inQuotes = false;
  /** The chunk with CRLF record ends, and how many records ended in it. */
  return (chunk: Buffer): { text: Buffer; rows: number } => {
    const ends: number[] = [];
    let quote = chunk.indexOf(QUOTE);
    for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, lf + 1)) {
      for (; quote !== -1 && quote < lf; quote = chunk.indexOf(QUOTE, quote + 1)) inQuotes = !inQuotes;
      if (!inQuotes) ends.push(lf);
    }
    for (; quote !== -1; quote = chunk.indexOf(QUOTE, quote + 1)) inQuotes = !inQuotes;
    const text = Buffer.allocUnsafe(chunk.length + ends.length);
    let from = 0;
    let to = 0;
    for (const end of ends) {
      to += chunk.copy(text, to, from, end);
      text[to++] = CR;
      text[to++] = LF;
      from = end + 1;
    }
    chunk.copy(text, to, from);
    return { text, rows: ends.length };
  };
}

/**
 * The planner would sort a large range after a parallel scan, holding every byte back until the
 * sort ends; walking the index device_records_by_created sends the first rows at once, in
 * order, and joins the few users through a memoized index lookup.
 */
const STREAM_IN_INDEX_ORDER =
  'set local enable_sort = off; set local enable_hashjoin = off; set local enable_mergejoin = off';
/**
 * Two COPYs at once already fill the cores: parallel workers would only contend with them. The
 * planner misjudges a slice's size and would compile its expressions (JIT) for each one, a large
 * part of the slice's time for no gain in the run (api/README.md#report-and-apk).
 */
const ONE_PROCESS_NO_JIT = 'set local max_parallel_workers_per_gather = 0; set local jit = off';

/**
 * One COPY writes its CSV on one core (its parallel workers only read), so the report is cut into
 * slices of this many rows, copied two at once on two connections: the next slice is written
 * while the current one is sent, and waits in its connection's socket buffers until its turn.
 * The slice's size barely changes the pace over a wide range; reading the next slice ahead into
 * the server's memory as well only cost the server CPU.
 */
export const SLICE_ROWS = 20_000;

/** A slice's COPY, and where it ends (nothing for the range's last slice). */
interface Slice {
  copy: Readable;
  to: ReportKey | undefined;
}

/** The report's lines in CSV as PostgreSQL writes them, a chunk at a time with its row count. */
export async function* copiedReportLines(
  db: Db,
  pool: Pool,
  range: TimeRange,
  sliceRows = SLICE_ROWS,
): AsyncGenerator<{ text: Buffer; rows: number }> {
  const lanes: PoolClient[] = [];
  let finished = false;
  try {
    // Both connections read one snapshot, the first's, as the one COPY of a single query would.
    const first = await pool.connect();
    lanes.push(first);
    await first.query(`begin isolation level repeatable read; ${STREAM_IN_INDEX_ORDER}; ${ONE_PROCESS_NO_JIT}`);
    const { rows } = await first.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot');
    const second = await pool.connect();
    lanes.push(second);
    await second.query(
      `begin isolation level repeatable read; set transaction snapshot ${second.escapeLiteral(rows[0]!.snapshot)}; ${STREAM_IN_INDEX_ORDER}; ${ONE_PROCESS_NO_JIT}`,
    );

    /** Finds where the slice after `from` ends, and starts its COPY. */
    const startSlice = async (lane: PoolClient, from: ReportKey): Promise<Slice> => {
      const end = sliceEndQuery(db, range, from, sliceRows).compile();
      // PostgreSQL answers a bigint as text.
      const [last] = (await lane.query<{ created_ms: string; id: number }>(end.sql, [...end.parameters])).rows;
      const to: ReportKey | undefined = last && { created_ms: Number(last.created_ms), id: last.id };
      const query = reportCopyQuery(range, from, to).compile(db.kysely).sql;
      const copy = lane.query(copyTo(`copy (${query}) to stdout with (format csv)`));
      // Until its turn nobody listens to the next slice: its error is kept for then, not thrown.
      copy.on('error', (error) => copy.destroy(error));
      return { copy, to };
    };

    let next: Promise<Slice> | undefined = startSlice(first, beforeRange(range));
    for (let slice = 0; next; slice++) {
      const { copy, to }: Slice = await next;
      next = to ? startSlice(lanes[(slice + 1) % 2]!, to) : undefined;
      // A failure of the next slice is met when its turn comes, or dropped with the report.
      next?.catch(() => undefined);
      const toCrlf = crlfRecordEnds();
      for await (const chunk of copy) yield toCrlf(chunk as Buffer);
    }
    await Promise.all(lanes.map((lane) => lane.query('commit')));
    finished = true;
  } finally {
    // A COPY stopped halfway leaves the connection in the middle of an answer: it is closed, not reused.
    for (const lane of lanes) lane.release(!finished);
  }
}
