// The report as generate_csv sends it (written by PostgreSQL's COPY, or here from SQLite's pages)
// against the report's rules written in TypeScript, csvLine(reportCells(row)): byte for byte, over
// values made to break CSV and spreadsheets.
import http from 'node:http';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import type { DeviceRecordsTable } from '../src/db/schema';
import { SLICE_ROWS, copiedReportLines, reportRecordEnds } from '../src/report/report-lines.postgres';
import { UTF8_BOM, csvLine } from '../src/report/csv';
import { localMidnight } from '@veritas/shared/domain';
import { dayRange, type TimeRange } from '../src/report/dates';
import { REPORT_COLUMNS, reportCells, type ReportRow } from '../src/report/rows';
import { derivedColumns } from '../src/writes/derived-columns';
import { build, onPostgres, type Client } from './support/build';
import { eventually } from '../../test-support/eventually';

const api = build({
  groups: [{ code: 'HUB1', organization: 'hub' }],
  users: [{ username: 'exec1', role: 'executive', group: 'HUB1' }],
  signIn: { executive: 'exec1' },
});

/** Text that CSV quoting and formula escaping must handle: their characters, at the start and inside. */
const TRICKY = [
  '',
  ' ',
  '=SUM(A1:A9)',
  '+44 20',
  '-1',
  '@SUM(1)',
  '\tTAB',
  '\rCR',
  '\nLF',
  'a,b',
  'say "hi"',
  '"',
  '""',
  'line1\nline2',
  'line1\r\nline2',
  'ends with LF\n',
  '=HYPERLINK("http://x","y")',
  "'quoted'",
  'back\\slash',
  '\\.',
  'Ünïcødé ✓ 😀 日本語',
  'NULL',
  'plain',
];
const trickyText = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string({
    unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', '"', ',', ' ', 'a', 'é', '😀'),
    maxLength: 8,
  }),
);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });

const DAY = '2011-06-15';
const range = dayRange(localMidnight(DAY)!, localMidnight(DAY)!);
const dayStart = range.first;
const dayEnd = range.last;

/** Stored times: ISO text within the day (its first and last millisecond included), or anything a file held. */
const storedTime = fc.oneof(
  fc.constantFrom(new Date(dayStart).toISOString(), new Date(dayEnd).toISOString()),
  fc.integer({ min: dayStart, max: dayEnd }).map((ms) => new Date(ms).toISOString()),
);

type NewRecord = Omit<Insertable<DeviceRecordsTable>, 'sort_ms' | 'status_key'>;

const flag = fc.constantFrom(0, 1);
const record = (userIds: number[]) =>
  fc.record({
    hub_code: maybe(trickyText),
    created_date: storedTime,
    device_type: maybe(trickyText),
    is_blindpick: flag,
    blind_brand: maybe(trickyText),
    blind_model: maybe(trickyText),
    device_model_name: maybe(trickyText),
    device_brand: maybe(trickyText),
    is_submit: flag,
    submit_time: maybe(fc.oneof(storedTime, trickyText)),
    submitted_by_id: maybe(fc.constantFrom(...userIds)),
    submitted_device_name: maybe(trickyText),
    submitted_manufacturer: maybe(trickyText),
    device_result: maybe(trickyText),
    is_verified: flag,
    verify_time: maybe(storedTime),
    verified_by_id: maybe(fc.constantFrom(...userIds)),
    is_verified_rc: flag,
    verified_by_rc_id: maybe(fc.constantFrom(...userIds)),
    verify_time_rc: maybe(storedTime),
    is_verified_rc_by: flag,
  });

/** Users whose names need quoting or escaping, straight into the database (once), and their ids. */
async function trickyUsers(): Promise<number[]> {
  const names = ['=cmd|calc', '-rm', '@admin', 'O"Brien', 'Smith, J', 'two\nlines', 'Zoë ✓'];
  await api.db.kysely
    .insertInto('users')
    .values(
      names.map((username, i) => ({
        username,
        email: `tricky${i}@example.com`,
        password_hash: 'x',
        role: 'operators' as const,
        is_active: 1,
        group_id: null,
        created_at: new Date().toISOString(),
      })),
    )
    .onConflict((conflict) => conflict.column('username').doNothing())
    .execute();
  const rows = await api.db.kysely.selectFrom('users').select('id').where('username', 'in', names).execute();
  return rows.map((row) => row.id);
}

/** The facts derivedColumns reads, for a record that has none of them. */
const FACTS = { hub_code: null, created_date: null, submit_time: null, verify_time: null, device_result: null };

async function insertRecords(records: NewRecord[]): Promise<void> {
  for (let start = 0; start < records.length; start += 500) {
    await api.db.kysely
      .insertInto('device_records')
      .values(records.slice(start, start + 500).map((r) => ({ ...r, ...derivedColumns({ ...FACTS, ...r }) })))
      .execute();
  }
}

/**
 * The report as csvLine(reportCells(row)) writes it, from the stored records read plainly: their
 * created dates are ISO 8601 UTC text here, so the range compares as text.
 */
async function referenceReport(within: TimeRange = range): Promise<Buffer> {
  const records = await api.db.kysely
    .selectFrom('device_records as d')
    .leftJoin('users as sb', 'sb.id', 'd.submitted_by_id')
    .leftJoin('users as vb', 'vb.id', 'd.verified_by_id')
    .leftJoin('users as rb', 'rb.id', 'd.verified_by_rc_id')
    .selectAll('d')
    .select(['sb.username as submitted_by', 'vb.username as verified_by', 'rb.username as verified_by_rc'])
    .where('d.created_date', '>=', new Date(within.first).toISOString())
    .where('d.created_date', '<=', new Date(within.last).toISOString())
    .orderBy('d.created_date')
    .orderBy('d.id')
    .execute();
  const lines = records.map((r) => {
    const row: ReportRow = [
      r.id,
      r.tracking_id,
      r.hub_code,
      r.created_date!,
      r.device_type,
      r.is_blindpick,
      r.blind_brand,
      r.blind_model,
      r.device_model_name,
      r.device_brand,
      r.is_submit,
      r.submit_time,
      r.submitted_by,
      r.submitted_device_name,
      r.submitted_manufacturer,
      r.device_result,
      r.is_verified,
      r.verify_time,
      r.verified_by,
      r.verified_by_rc,
      r.verify_time_rc,
      r.is_verified_rc_by,
    ];
    return csvLine(reportCells(row));
  });
  return Buffer.from(UTF8_BOM + csvLine(REPORT_COLUMNS) + lines.join(''));
}

async function downloadBytes(client: Client): Promise<Buffer> {
  const response = await fetch(`${api.url}/veritas/api/generate_csv/`, {
    method: 'POST',
    headers: {
      cookie: client.cookieHeader(),
      'x-xsrf-token': client.cookie('XSRF-TOKEN') ?? '',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ start_date: DAY, end_date: DAY }),
  });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe('the report as the database writes it', () => {
  test('is byte for byte the report csvLine(reportCells(row)) writes: quoting, formula starts, empty and missing cells, unicode, stored times, order', async () => {
    const userIds = await trickyUsers();
    const sampled = fc.sample(record(userIds), { numRuns: 4000, seed: 20111506 });
    const records: NewRecord[] = sampled.map((r, i) => ({ ...r, tracking_id: `${TRICKY[i % TRICKY.length]}#${i}` }));
    // Outside the day, or not a time: never in the report.
    const outside = [new Date(dayStart - 1).toISOString(), new Date(dayEnd + 1).toISOString(), 'not-a-date', null];
    records.push(...outside.map((created_date, i) => ({ ...sampled[i]!, tracking_id: `OUT${i}`, created_date })));
    await insertRecords(records);

    const reference = await referenceReport();
    expect(reference.toString('utf8').split('\r\n').length).toBeGreaterThan(4000);
    const report = await downloadBytes(api.as.executive!);
    expect(report.length).toBe(reference.length);
    expect(report.equals(reference)).toBe(true);
  });
});

describe('COPY record ends', () => {
  // Four records as COPY writes them, each with its key's two cells (created_ms, id) before its LF.
  const copied = 'a,"x\ny",b,1,10\n"",c,"say ""hi""\n",2,11\n"\n",,3,12\n' + 'd,"""\n""",e,1733155200000,2147483647\n';
  const expected = 'a,"x\ny",b\r\n"",c,"say ""hi""\n"\r\n"\n",\r\n' + 'd,"""\n""",e\r\n';

  test('each record ends with CRLF without its key, an LF inside a quoted cell stays, wherever the chunks are cut', () => {
    const bytes = Buffer.from(copied);
    for (let first = 0; first <= bytes.length; first++) {
      for (let second = first; second <= bytes.length; second++) {
        const lines = reportRecordEnds();
        const parts = [bytes.subarray(0, first), bytes.subarray(first, second), bytes.subarray(second)].map(lines);
        expect(Buffer.concat(parts.map((part) => part.text)).toString()).toBe(expected);
        expect(parts.reduce((rows, part) => rows + part.rows, 0)).toBe(4);
        // A piece holds whole records only, and knows the key of its last.
        expect(parts.at(-1)!.last ?? parts.findLast((part) => part.last)!.last).toEqual({
          created_ms: 1733155200000,
          id: 2147483647,
        });
      }
    }
  });

  test('a piece cut inside a record holds the records before the cut, and the key of the last of them', () => {
    const lines = reportRecordEnds();
    const first = lines(Buffer.from('a,1,10\nb,"x\n'));
    expect([first.text.toString(), first.rows, first.last]).toEqual(['a\r\n', 1, { created_ms: 1, id: 10 }]);
    const second = lines(Buffer.from('y",2,11\n'));
    expect([second.text.toString(), second.rows, second.last]).toEqual(['b,"x\ny"\r\n', 1, { created_ms: 2, id: 11 }]);
  });
});

/** The report's lines as copiedReportLines sends them in slices of `sliceRows`, and their count. */
async function copiedInSlices(within: TimeRange, sliceRows: number, meanwhile?: () => Promise<void>) {
  const texts: Buffer[] = [];
  let rows = 0;
  for await (const chunk of copiedReportLines(api.db, within, sliceRows)) {
    texts.push(chunk.text);
    rows += chunk.rows;
    if (texts.length === 1) await meanwhile?.();
  }
  return { text: Buffer.concat(texts), rows };
}

/** A day's range, and a record without facts created `ms` into that day. */
function plainDay(day: string) {
  const within = dayRange(localMidnight(day)!, localMidnight(day)!);
  const stored = (trackingId: string, ms: number): NewRecord => ({
    tracking_id: trackingId,
    created_date: new Date(within.first + ms).toISOString(),
    is_blindpick: 0,
    is_submit: 0,
    is_verified: 0,
    is_verified_rc: 0,
    is_verified_rc_by: 0,
  });
  return { within, stored };
}

/** Keeps the uncaught errors until `stop`, which returns them. */
function keepUncaught() {
  const uncaught: unknown[] = [];
  const keep = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', keep);
  return {
    stop: () => {
      process.off('uncaughtException', keep);
      return uncaught;
    },
  };
}

describe('the report copied in slices, two at once', () => {
  onPostgres(
    'slices of any size make the same bytes as one COPY, cut between records of the same created_date',
    async () => {
      const day = '2011-06-20';
      const within = dayRange(localMidnight(day)!, localMidnight(day)!);
      // Five instants for 600 records: most slices start and end inside a run of equal created_dates.
      const instants = [0, 1, 2, 3, 4].map((i) => new Date(within.first + i * 3_600_000).toISOString());
      const sampled = fc.sample(record(await trickyUsers()), { numRuns: 600, seed: 20110620 });
      await insertRecords(
        sampled.map((r, i) => ({
          ...r,
          tracking_id: `SLICE#${i}`,
          created_date: instants[(i * 7) % instants.length]!,
        })),
      );
      const reference = await referenceReport(within);
      const lines = reference.subarray(Buffer.byteLength(UTF8_BOM + csvLine(REPORT_COLUMNS)));
      for (const sliceRows of [1, 7, 599, 600, 601, SLICE_ROWS]) {
        const copied = await copiedInSlices(within, sliceRows);
        expect({ sliceRows, rows: copied.rows }).toEqual({ sliceRows, rows: 600 });
        expect(copied.text.equals(lines)).toBe(true);
      }
    },
  );

  onPostgres(
    'every slice reads the snapshot of the first: what is stored or changed while the report is copied is not in it',
    async () => {
      const { within, stored } = plainDay('2011-06-21');
      await insertRecords(Array.from({ length: 100 }, (_, i) => stored(`SNAP${i}`, i)));

      // The pool's other connections are held, so the report's second one waits after the first has taken its snapshot.
      const pool = api.db.pg!;
      const held = await Promise.all(Array.from({ length: pool.options.max! - 1 }, () => pool.connect()));
      const report = copiedInSlices(within, 10, async () => {
        // Once the first chunk is sent, while later slices are still to be copied.
        await insertRecords([stored('SNAP-LAST', 1000)]);
        await api.db.kysely
          .updateTable('device_records')
          .set({ device_type: 'CHANGED' })
          .where('tracking_id', '=', 'SNAP99')
          .execute();
      });
      await eventually(() => pool.waitingCount > 0);
      // In the second slice, the first the second connection copies.
      const early = stored('SNAP-EARLY', 15);
      const insertEarly = api.db.kysely
        .insertInto('device_records')
        .values({ ...early, ...derivedColumns({ ...FACTS, ...early }) })
        .compile();
      await held[0]!.query(insertEarly.sql, [...insertEarly.parameters]);
      for (const client of held) client.release();

      const copied = await report;
      expect(copied.rows).toBe(100);
      expect(copied.text.toString()).not.toMatch(/SNAP-EARLY|SNAP-LAST|CHANGED/);
      expect((await copiedInSlices(within, 10)).text.toString()).toMatch(/SNAP-EARLY[^]*SNAP-LAST/);
    },
  );

  onPostgres(
    'a report left after its first chunk closes both connections, the slice copied ahead included, without an uncaught error',
    async () => {
      const { within, stored } = plainDay('2011-06-22');
      await insertRecords(Array.from({ length: 100 }, (_, i) => stored(`LEFT${i}`, i)));
      // The slice copied ahead has nobody reading it: its connection's error would otherwise end the server.
      const uncaught = keepUncaught();
      for await (const chunk of copiedReportLines(api.db, within, 10)) {
        expect(chunk.rows).toBeGreaterThan(0);
        break;
      }
      // The closed connections report their end on later turns of the event loop.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(uncaught.stop()).toEqual([]);
      const { rows } = await sql<{ open: number }>`select count(*)::int as open from pg_stat_activity
      where datname = current_database() and query like 'copy (%' and pid <> pg_backend_pid()`.execute(api.db.kysely);
      expect(rows[0]!.open).toBe(0);
    },
  );
});

describe('a report the database stops', () => {
  const copying = sql`from pg_stat_activity where datname = current_database() and query like 'copy (%'`;

  /**
   * Ends the report's COPYs as a restart of the database ends every connection, once two are under
   * way; answers how many it ended.
   */
  async function endTheCopies(): Promise<number> {
    await eventually(async () => {
      const { rows } = await sql<{ copies: number }>`select count(*)::int as copies ${copying}`.execute(api.db.kysely);
      return rows[0]!.copies >= 2;
    });
    const { rows } = await sql<{ ended: boolean }>`select pg_terminate_backend(pid) as ended ${copying}`.execute(
      api.db.kysely,
    );
    return rows.filter((row) => row.ended).length;
  }

  /**
   * Downloads a day's report, the client pausing after its first chunk while `meddle` runs, so
   * that the COPYs wait on it: the slice being sent and the one copied ahead, which nothing reads yet.
   */
  function downloadMeddled(day: string, meddle: () => Promise<unknown>) {
    const client = api.as.executive!;
    return new Promise<{ body: Buffer; ended: boolean }>((resolve) => {
      const request = http.request(`${api.url}/veritas/api/generate_csv/`, {
        method: 'POST',
        headers: {
          cookie: client.cookieHeader(),
          'x-xsrf-token': client.cookie('XSRF-TOKEN') ?? '',
          'content-type': 'application/json',
        },
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let ended = false;
        response.once('data', async () => {
          response.pause();
          await meddle();
          response.resume();
        });
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => (ended = true));
        response.on('close', () => resolve({ body: Buffer.concat(chunks), ended }));
      });
      request.on('error', () => resolve({ body: Buffer.alloc(0), ended: false }));
      request.end(JSON.stringify({ start_date: day, end_date: day }));
    });
  }

  /** The day's report.downloaded entry, once written: the download's end writes it. */
  async function reportEntry(day: string) {
    let entry: { details: string | null; outcome: string } | undefined;
    await eventually(async () => {
      entry = await api.db.kysely
        .selectFrom('audit_log')
        .select(['details', 'outcome'])
        .where('action', '=', 'report.downloaded')
        .where('details', 'like', `%${day}%`)
        .executeTakeFirst();
      return entry !== undefined;
    });
    return { outcome: entry!.outcome, ...(JSON.parse(entry!.details!) as { rows: number; complete: boolean }) };
  }

  onPostgres(
    "a restart's end of its connections mid-stream, the slice being sent and the one copied ahead: the report picks up after the last record sent, every record once, complete, without an uncaught error",
    async () => {
      // An error of the slice copied ahead, which nothing reads yet, would otherwise end the server.
      const uncaught = keepUncaught();
      const day = '2011-07-01';
      const { within, stored } = plainDay(day);
      const padding = 'x'.repeat(300);
      await insertRecords(
        Array.from({ length: 60_000 }, (_, i) => ({ ...stored(`CUT${i}`, i), device_model_name: padding })),
      );
      const reference = await referenceReport(within);

      let ended = 0;
      const download = await downloadMeddled(day, async () => (ended = await endTheCopies()));
      expect(ended).toBe(2);
      expect(download.ended).toBe(true);
      expect(download.body.length).toBe(reference.length);
      expect(download.body.equals(reference)).toBe(true);
      expect(await reportEntry(day)).toMatchObject({ outcome: 'success', rows: 60_000, complete: true });
      expect(uncaught.stop()).toEqual([]);
    },
  );

  onPostgres(
    'a database that keeps ending its connections cuts the download short after three pick-ups, recorded as report.downloaded, not complete',
    async () => {
      const uncaught = keepUncaught();
      const day = '2011-07-02';
      const { stored } = plainDay(day);
      const padding = 'x'.repeat(300);
      await insertRecords(
        Array.from({ length: 60_000 }, (_, i) => ({ ...stored(`DOWN${i}`, i), device_model_name: padding })),
      );
      let down = true;
      /** Ends every COPY of the report as soon as it starts, until the download is over. */
      const keepEnding = async () => {
        while (down) {
          await sql`select pg_terminate_backend(pid) ${copying}`.execute(api.db.kysely);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      };
      const download = await downloadMeddled(day, async () => {
        await endTheCopies();
        void keepEnding();
      });
      down = false;
      expect(download.ended).toBe(false);
      const entry = await reportEntry(day);
      expect(entry).toMatchObject({ outcome: 'failure', complete: false });
      expect(entry.rows).toBeLessThan(60_000);
      expect(uncaught.stop()).toEqual([]);
    },
  );
});
