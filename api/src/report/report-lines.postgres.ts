// PostgreSQL renders the report itself: COPY (…) TO STDOUT in CSV form, a slice of the range at a
// time on each of two connections, streamed to the answer as the client reads it (pg-copy-streams
// reads a connection only when asked for more), picked up again after a restart of the database.
import type { Readable } from 'node:stream';
import type { PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { isConnectionError } from '../db/availability';
import type { Db } from '../db/schema';
import type { TimeRange } from './dates';
import { sql, type RawBuilder } from 'kysely';
import { FORMULA_START } from './csv';
import { recordStatusOfFlags } from '@veritas/shared/domain';
import { beforeRange, recordsAfter, REPORT_COLUMNS, type ReportKey } from './rows';

/**
 * Where the slice of `rows` records after `from` ends, by an index-only walk; nothing
 * when fewer are left in the range.
 */
function sliceEndQuery(db: Db, range: TimeRange, from: ReportKey, rows: number) {
  return recordsAfter(db, range, from)
    .select(['created_ms', 'id'])
    .offset(rows - 1)
    .limit(1);
}

type ReportColumn = (typeof REPORT_COLUMNS)[number];

const FORMULA_START_CODES = sql.raw(`(${[...FORMULA_START].map((start) => start.charCodeAt(0)).join(', ')})`);

/**
 * csvCell's formula rule in SQL, and empty text as null (which COPY writes as an empty cell, where
 * it would write "" for empty text). ascii() reads the first character's code without the copy
 * substr() makes: the whole query took a quarter less time.
 */
const formulaSafe = (value: RawBuilder<unknown>) =>
  sql<
    string | null
  >`case when ascii(${value}) in ${FORMULA_START_CODES} then '''' || ${value} when ${value} <> '' then ${value} end`;

const column = (name: string) => formulaSafe(sql.ref(name));
const blind = sql`d.is_blindpick = 1`;

/**
 * reportCells in SQL, over the record `d` and the user names `sb`, `vb` and `rb`: each text cell
 * formula-safe and null when empty, not yet quoted. The flags are stored as 0 or 1.
 */
const REPORT_CELLS_SQL: Record<ReportColumn, RawBuilder<string | null>> = {
  tracking_id: column('d.tracking_id'),
  hub_code: column('d.hub_code'),
  created_date: column('d.created_date'),
  device_type: column('d.device_type'),
  expected_brand: formulaSafe(sql`case when ${blind} then d.blind_brand else d.device_brand end`),
  expected_model: formulaSafe(sql`case when ${blind} then d.blind_model else d.device_model_name end`),
  is_blindpick: sql`case when ${blind} then 'true' else 'false' end`,
  // recordStatusOfFlags's wording, taken from it.
  status: sql`case when d.is_submit = 0 then ${sql.lit(recordStatusOfFlags(false, false, false))}
    when d.is_verified = 0 then ${sql.lit(recordStatusOfFlags(true, false, false))}
    when d.is_verified_rc_by = 0 then ${sql.lit(recordStatusOfFlags(true, true, false))}
    else ${sql.lit(recordStatusOfFlags(true, true, true))} end`,
  submitted_by: column('sb.username'),
  submit_time: column('d.submit_time'),
  submitted_device: column('d.submitted_device_name'),
  submitted_manufacturer: column('d.submitted_manufacturer'),
  device_result: column('d.device_result'),
  verified_by: column('vb.username'),
  verify_time: column('d.verify_time'),
  verified_by_rc: column('rb.username'),
  verify_time_rc: column('d.verify_time_rc'),
};

/** The records `d` (the table or a page of it) with the names of their users. */
const withUserNames = (records: RawBuilder<unknown>) => sql`${records} as d
  left join users sb on sb.id = d.submitted_by_id
  left join users vb on vb.id = d.verified_by_id
  left join users rb on rb.id = d.verified_by_rc_id`;

/**
 * PostgreSQL: the report's query for COPY … TO STDOUT (FORMAT csv), which quotes like csvCell and
 * ends records with LF (reportRecordEnds): the rows of the range after `from`, up to `to` or the
 * range's end, each followed by its key (created_ms, id), two numbers the report leaves out. COPY
 * takes no parameters: the bounds are written as literals.
 */
function reportCopyQuery(range: TimeRange, from: ReportKey, to: ReportKey | undefined): RawBuilder<unknown> {
  const cells = REPORT_COLUMNS.map((name) => REPORT_CELLS_SQL[name]);
  const key = ({ created_ms, id }: ReportKey) => sql`(${sql.lit(created_ms)}, ${sql.lit(id)})`;
  const end = to ? sql`(d.created_ms, d.id) <= ${key(to)}` : sql`d.created_ms <= ${sql.lit(range.last)}`;
  return sql`select ${sql.join(cells)}, d.created_ms, d.id from ${withUserNames(sql.table('device_records'))}
    where (d.created_ms, d.id) > ${key(from)} and ${end}
    order by d.created_ms, d.id`;
}

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;

/** The whole records of a chunk as the report's lines, how many they are, and the last one's key. */
export interface ReportLinesChunk {
  text: Buffer;
  rows: number;
  last?: ReportKey;
}

/** Where the records of `chunk` end: its LFs outside quotes, the chunk starting inside quotes or not. */
function recordEnds(chunk: Buffer, inQuotes: boolean): number[] {
  const ends: number[] = [];
  let quote = chunk.indexOf(QUOTE);
  for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, lf + 1)) {
    for (; quote !== -1 && quote < lf; quote = chunk.indexOf(QUOTE, quote + 1)) inQuotes = !inQuotes;
    if (!inQuotes) ends.push(lf);
  }
  return ends;
}

/** Whether the text of a record's start leaves a quoted cell open (an odd number of quotes). */
function quoteOpen(start: Buffer): boolean {
  let open = false;
  for (let quote = start.indexOf(QUOTE); quote !== -1; quote = start.indexOf(QUOTE, quote + 1)) open = !open;
  return open;
}

/**
 * Writes the records of `source` from `from` to each of `ends` into `text` at `to`, each without its
 * key and ending with CRLF; answers where the text ends and the last record's key.
 */
function writeLines(source: Buffer, from: number, ends: number[], text: Buffer, to: number) {
  let idStart = 0;
  let keyStart = 0;
  for (const end of ends) {
    // Read back over the key's digits: a call of lastIndexOf per record cost more than the walk.
    for (idStart = end - 1; source[idStart] !== COMMA; idStart--);
    for (keyStart = idStart - 1; source[keyStart] !== COMMA; keyStart--);
    to += source.copy(text, to, from, keyStart);
    text[to++] = CR;
    text[to++] = LF;
    from = end + 1;
  }
  const end = ends[ends.length - 1];
  const last: ReportKey | undefined =
    end === undefined
      ? undefined
      : {
          created_ms: Number(source.toString('latin1', keyStart + 1, idStart)),
          id: Number(source.toString('latin1', idStart + 1, end)),
        };
  return { to, last };
}

/**
 * COPY ends each CSV record with LF after its key's two cells; the report's lines end with CRLF
 * and without the key. An LF that is part of a cell lies inside quotes, that is after an odd number
 * of quotes in its record (a quote inside a cell is doubled); the key's cells are digits, so the
 * two commas before a record's end start them. Each chunk is handed on up to its last whole
 * record, the start of the next kept for the next chunk: every piece sent ends a record, whose key
 * is where a report picks up after its connections failed.
 */
export function reportRecordEnds() {
  let rest: Buffer = Buffer.alloc(0);
  return (chunk: Buffer): ReportLinesChunk => {
    const ends = recordEnds(chunk, quoteOpen(rest));
    if (!ends.length) {
      // A record longer than the chunk: rare, the pieces of COPY's output being tens of kilobytes.
      rest = Buffer.concat([rest, chunk]);
      return { text: Buffer.alloc(0), rows: 0 };
    }
    const whole = ends[ends.length - 1]! + 1;
    // Each line loses its key's cells (at least 4 bytes) and gains a CR.
    const text = Buffer.allocUnsafe(rest.length + whole);
    // The record begun in the last chunk, joined to its end alone: copying the whole chunk onto
    // the rest cost more than the conversion.
    const first = Buffer.concat([rest, chunk.subarray(0, ends[0]! + 1)]);
    const head = writeLines(first, 0, [first.length - 1], text, 0);
    const body = writeLines(chunk, ends[0]! + 1, ends.slice(1), text, head.to);
    rest = chunk.subarray(whole);
    return { text: text.subarray(0, body.to), rows: ends.length, last: body.last ?? head.last };
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

/**
 * How many times a report picks up where it was after its connections failed (a restart or a
 * failover of the database) before it gives up, the download cut short.
 */
const PICK_UPS = 3;

/**
 * The report's lines in CSV as PostgreSQL writes them, a chunk at a time with its row count. A
 * download outlives a restart of the database: when its connections fail, the report goes on after
 * the last record it sent, on new connections (docs/csv.md#streaming).
 */
export async function* copiedReportLines(
  db: Db,
  range: TimeRange,
  sliceRows = SLICE_ROWS,
): AsyncGenerator<ReportLinesChunk> {
  const sent = { last: beforeRange(range) };
  for (let pickUps = 0; ; pickUps++) {
    try {
      return yield* copiedAfter(db, range, sliceRows, sent);
    } catch (error) {
      if (!isConnectionError(error) || pickUps === PICK_UPS) throw error;
    }
  }
}

/**
 * The lines of the range after `sent.last`, copied in slices two at once on two connections that
 * read one snapshot; `sent.last` follows the records handed on.
 */
async function* copiedAfter(
  db: Db,
  range: TimeRange,
  sliceRows: number,
  sent: { last: ReportKey },
): AsyncGenerator<ReportLinesChunk> {
  const pool = db.pg!;
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

    let next: Promise<Slice> | undefined = startSlice(first, sent.last);
    for (let slice = 0; next; slice++) {
      const { copy, to }: Slice = await next;
      next = to ? startSlice(lanes[(slice + 1) % 2]!, to) : undefined;
      // A failure of the next slice is met when its turn comes, or dropped with the report.
      next?.catch(() => undefined);
      const lines = reportRecordEnds();
      for await (const chunk of copy) {
        const whole = lines(chunk as Buffer);
        if (!whole.last) continue;
        sent.last = whole.last;
        yield whole;
      }
    }
    await Promise.all(lanes.map((lane) => lane.query('commit')));
    finished = true;
  } finally {
    // A COPY stopped halfway leaves the connection in the middle of an answer: it is closed, not reused.
    for (const lane of lanes) lane.release(!finished);
  }
}
