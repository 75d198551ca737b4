// PostgreSQL renders the report itself: COPY (…) TO STDOUT in CSV form, streamed to the answer as
// the client reads it (pg-copy-streams reads the connection only when asked for more).
import type { Pool } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Db } from '../db/schema';
import type { IsoRange } from './dates';
import { reportCopyQuery } from './rows';

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
 * sort ends; walking the index device_records_created_date_id sends the first rows at once, in
 * order, and joins the few users through a memoized index lookup.
 */
const STREAM_IN_INDEX_ORDER =
  'set local enable_sort = off; set local enable_hashjoin = off; set local enable_mergejoin = off';

/** The report's lines in CSV as PostgreSQL writes them, a chunk at a time with its row count. */
export async function* copiedReportLines(
  db: Db,
  pool: Pool,
  range: IsoRange,
): AsyncGenerator<{ text: Buffer; rows: number }> {
  const query = reportCopyQuery(range).compile(db.kysely);
  const client = await pool.connect();
  let finished = false;
  try {
    await client.query(`begin; ${STREAM_IN_INDEX_ORDER}`);
    const toCrlf = crlfRecordEnds();
    for await (const chunk of client.query(copyTo(`copy (${query.sql}) to stdout with (format csv)`))) {
      yield toCrlf(chunk as Buffer);
    }
    await client.query('commit');
    finished = true;
  } finally {
    // A COPY stopped halfway leaves the connection in the middle of an answer: it is closed, not reused.
    client.release(!finished);
  }
}
