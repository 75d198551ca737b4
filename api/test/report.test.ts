// api/generate_csv/ (docs/csv.md#report-download): range, columns, order, escaping, validation, roles,
// paging and compression, over records written straight into the database.
import http from 'node:http';
import zlib from 'node:zlib';
import type { Insertable } from 'kysely';
import type { DeviceRecordsTable } from '../src/db/schema';
import { derivedColumns } from '../src/writes/derived-columns';
import { ADMIN_PASSWORD, ADMIN_USERNAME, build, type Client } from './support/build';

const HEADER =
  'tracking_id,hub_code,created_date,device_type,expected_brand,expected_model,is_blindpick,status,submitted_by,submit_time,submitted_device,submitted_manufacturer,device_result,verified_by,verify_time,verified_by_rc,verify_time_rc';

const api = build({
  groups: [
    { code: 'HUB1', organization: 'hub' },
    { code: 'RC1', organization: 'RC' },
  ],
  users: [
    { username: 'wm1', role: 'operators', group: 'HUB1' },
    { username: 'exec1', role: 'executive', group: 'HUB1' },
    { username: 'incharge1', role: 'incharge', group: 'HUB1' },
    { username: 'ops1', role: 'central_ops' },
    { username: 'rc1', role: 'executive', group: 'RC1' },
    { username: 'admin1', role: 'admin' },
  ],
  signIn: {
    super_admin: ADMIN_USERNAME,
    admin: 'admin1',
    central_ops: 'ops1',
    incharge: 'incharge1',
    executive: 'exec1',
  },
});
const { as } = api;

type NewRecord = Partial<Omit<Insertable<DeviceRecordsTable>, 'sort_ms' | 'status_key'>> & { tracking_id: string };

/** Records as a writer stores them: the columns given, the flags 0 otherwise, and the derived columns. */
async function insertRecords(records: NewRecord[]): Promise<void> {
  const defaults = { is_blindpick: 0, is_submit: 0, is_verified: 0, is_verified_rc: 0, is_verified_rc_by: 0 };
  const facts = { hub_code: null, created_date: null, submit_time: null, verify_time: null, device_result: null };
  for (let start = 0; start < records.length; start += 1000) {
    await api.db.kysely
      .insertInto('device_records')
      .values(
        records.slice(start, start + 1000).map((r) => {
          const row = { ...defaults, ...r };
          return { ...row, ...derivedColumns({ ...facts, ...row }) };
        }),
      )
      .execute();
  }
}

async function userId(username: string): Promise<number> {
  const user = await api.db.kysely
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return user.id;
}

/** Local time of the server (this same process), as stored: ISO 8601 UTC text. */
const localIso = (year: number, month: number, day: number, h = 0, m = 0, s = 0, ms = 0) =>
  new Date(year, month - 1, day, h, m, s, ms).toISOString();

interface Download {
  status: number;
  headers: Headers;
  /** The body decoded as UTF-8 with its byte order mark kept. */
  text: string;
  json: any;
}

async function download(client: Client, body: unknown): Promise<Download> {
  const response = await fetch(`${api.url}/veritas/api/generate_csv/`, {
    method: 'POST',
    headers: {
      cookie: client.cookieHeader(),
      'x-xsrf-token': client.cookie('XSRF-TOKEN') ?? '',
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  const text = Buffer.from(await response.arrayBuffer()).toString('utf8');
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // The CSV itself.
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Strict RFC 4180 reading: quoted cells with doubled quotes, every line ended by CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
    } else if (c === '"') {
      if (cell !== '' || wasQuoted) throw new Error(`stray quote at ${i}`);
      quoted = wasQuoted = true;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
      wasQuoted = false;
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      wasQuoted = false;
      i++;
    } else if (c === '\r' || c === '\n' || wasQuoted) {
      throw new Error(`unexpected ${JSON.stringify(c)} at ${i}`);
    } else cell += c;
  }
  if (quoted || cell !== '' || row.length > 0) throw new Error('the CSV does not end with CRLF');
  return rows;
}

/** The report's data rows as objects keyed by column, after checking the BOM and header. */
async function reportRows(client: Client, start: string, end: string): Promise<Record<string, string>[]> {
  const answer = await download(client, { start_date: start, end_date: end });
  expect(answer.status).toBe(200);
  expect(answer.text.startsWith('\uFEFF')).toBe(true);
  const [header, ...rows] = parseCsv(answer.text.slice(1));
  expect(header!.join(',')).toBe(HEADER);
  for (const row of rows) expect(row).toHaveLength(header!.length);
  return rows.map((row) => Object.fromEntries(header!.map((column, i) => [column, row[i]!])));
}

const trackingIds = (rows: Record<string, string>[]) => rows.map((r) => r.tracking_id);

describe('generate_csv: the file', () => {
  test('answers text/csv UTF-8 as an attachment named report_{start}_{end}.csv, not cached, starting with a BOM and the exact header row', async () => {
    const answer = await download(as.executive!, { start_date: '2001-01-01', end_date: '2001-01-31' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="report_2001-01-01_2001-01-31.csv"');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.text).toBe(`\uFEFF${HEADER}\r\n`);
  });

  test('is compressed with gzip when the client accepts it', async () => {
    await insertRecords(
      Array.from({ length: 50 }, (_, i) => ({ tracking_id: `GZ${i}`, created_date: localIso(2002, 2, 2, 10, 0, i) })),
    );
    const body = JSON.stringify({ start_date: '2002-02-02', end_date: '2002-02-02' });
    const client = as.executive!;
    const { headers, bytes } = await rawPost(`${api.url}/veritas/api/generate_csv/`, body, {
      cookie: client.cookieHeader(),
      'x-xsrf-token': client.cookie('XSRF-TOKEN')!,
      'content-type': 'application/json',
      'accept-encoding': 'gzip',
    });
    expect(headers['content-encoding']).toBe('gzip');
    const text = zlib.gunzipSync(bytes).toString('utf8');
    expect(text).toBe((await download(client, JSON.parse(body))).text);
    expect(parseCsv(text.slice(1))).toHaveLength(51);
  });
});

describe('generate_csv: range', () => {
  beforeAll(() =>
    insertRecords([
      { tracking_id: 'R-before', created_date: localIso(2003, 3, 9, 23, 59, 59, 999) },
      { tracking_id: 'R-first', created_date: localIso(2003, 3, 10) },
      { tracking_id: 'R-middle', created_date: localIso(2003, 3, 11, 12) },
      { tracking_id: 'R-last', created_date: localIso(2003, 3, 12, 23, 59, 59, 999) },
      { tracking_id: 'R-after', created_date: localIso(2003, 3, 13) },
    ]),
  );

  test('the range is inclusive at both ends in server local time: local 00:00 of the start day and 23:59:59.999 of the end day are in, the milliseconds around them out', async () => {
    expect(trackingIds(await reportRows(as.executive!, '2003-03-10', '2003-03-12'))).toEqual([
      'R-first',
      'R-middle',
      'R-last',
    ]);
  });

  test('a one-day range (start = end) holds that local day', async () => {
    expect(trackingIds(await reportRows(as.executive!, '2003-03-11', '2003-03-11'))).toEqual(['R-middle']);
  });

  test('records with a null or invalid created_date are never in the report', async () => {
    await insertRecords([
      { tracking_id: 'D-null', created_date: null },
      { tracking_id: 'D-invalid', created_date: 'not-a-date' },
      { tracking_id: 'D-valid', created_date: localIso(2004, 4, 4) },
    ]);
    const ids = trackingIds(await reportRows(as.executive!, '0001-01-01', '9999-12-31'));
    expect(ids).toContain('D-valid');
    expect(ids).not.toContain('D-null');
    expect(ids).not.toContain('D-invalid');
  });

  test('the range compares instants, as the dashboard does: a created date written with an offset is in the report of the day its instant falls on', async () => {
    // 01:00 local on 8 July, written five hours behind UTC: as text it reads 7 July.
    const instant = Date.parse(localIso(2007, 7, 8, 1));
    const behindUtc = new Date(instant - 5 * 3_600_000).toISOString().replace('Z', '-05:00');
    expect(behindUtc.startsWith('2007-07-07')).toBe(true);
    await insertRecords([{ tracking_id: 'Z-offset', created_date: behindUtc }]);
    expect(trackingIds(await reportRows(as.executive!, '2007-07-07', '2007-07-07'))).toEqual([]);
    expect(trackingIds(await reportRows(as.executive!, '2007-07-08', '2007-07-08'))).toEqual(['Z-offset']);
  });

  test('rows come in created_date order, then in insertion (id) order for equal dates', async () => {
    await insertRecords([
      { tracking_id: 'O-c', created_date: localIso(2005, 5, 5, 15) },
      { tracking_id: 'O-a', created_date: localIso(2005, 5, 5, 9) },
      { tracking_id: 'O-b1', created_date: localIso(2005, 5, 5, 12) },
      { tracking_id: 'O-b2', created_date: localIso(2005, 5, 5, 12) },
      { tracking_id: 'O-d', created_date: localIso(2005, 5, 6, 1) },
    ]);
    expect(trackingIds(await reportRows(as.executive!, '2005-05-05', '2005-05-06'))).toEqual([
      'O-a',
      'O-b1',
      'O-b2',
      'O-c',
      'O-d',
    ]);
  });

  test('a report over many pages (12,000 records, many sharing a created_date across page ends) arrives complete, in order, without duplicates', async () => {
    const count = 12_000;
    // Inserted in an order unlike the report's, with up to eight records per timestamp.
    const records = Array.from({ length: count }, (_, i) => {
      const n = (i * 7919) % count;
      const createdDate = localIso(2006, 6, 6, 0, 0, 0, Math.floor(n / 8) * 17);
      return { tracking_id: `P${String(n).padStart(5, '0')}`, created_date: createdDate };
    });
    await insertRecords(records);
    const stored = await api.db.kysely
      .selectFrom('device_records')
      .select(['id', 'tracking_id', 'created_date'])
      .where('tracking_id', 'like', 'P%')
      .execute();
    const expected = stored
      .sort((a, b) => (a.created_date! < b.created_date! ? -1 : a.created_date! > b.created_date! ? 1 : a.id - b.id))
      .map((r) => r.tracking_id);

    const ids = trackingIds(await reportRows(as.executive!, '2006-06-06', '2006-06-06'));
    expect(ids).toHaveLength(count);
    expect(new Set(ids).size).toBe(count);
    expect(ids).toEqual(expected);
  });
});

describe('generate_csv: columns', () => {
  test('status of every state: Pending, Submitted for verification, verified at hub, Detatched; usernames of each step and ISO times as stored', async () => {
    const [wm, exec, rc] = [await userId('wm1'), await userId('exec1'), await userId('rc1')];
    const times = {
      submit: '2007-07-07T08:00:00.000Z',
      verify: '2007-07-07T09:00:00.000Z',
      rc: '2007-07-08T10:00:00.000Z',
    };
    const submitted = {
      is_submit: 1,
      submit_time: times.submit,
      submitted_by_id: wm,
      submitted_device_name: 'Galaxy S23',
      submitted_manufacturer: 'Samsung Electronics',
      device_result: 'passed',
    };
    const verified = { ...submitted, is_verified: 1, verify_time: times.verify, verified_by_id: exec };
    const detached = {
      ...verified,
      is_verified_rc: 1,
      verified_by_rc_id: rc,
      verify_time_rc: times.rc,
      is_verified_rc_by: 1,
    };
    await insertRecords([
      {
        tracking_id: 'S-pending',
        created_date: localIso(2007, 7, 7, 1),
        hub_code: 'HUB1',
        device_type: 'mobile',
        device_brand: 'Samsung',
        device_model_name: 'Galaxy S23',
      },
      { tracking_id: 'S-submitted', created_date: localIso(2007, 7, 7, 2), ...submitted, device_result: 'E006' },
      { tracking_id: 'S-verified', created_date: localIso(2007, 7, 7, 3), ...verified },
      { tracking_id: 'S-detached', created_date: localIso(2007, 7, 7, 4), ...detached },
    ]);
    const rows = await reportRows(as.executive!, '2007-07-07', '2007-07-07');
    expect(rows.map((r) => [r.tracking_id, r.status])).toEqual([
      ['S-pending', 'Pending'],
      ['S-submitted', 'Submitted for verification'],
      ['S-verified', 'verified at hub'],
      ['S-detached', 'Detatched'],
    ]);
    expect(rows[0]).toEqual({
      tracking_id: 'S-pending',
      hub_code: 'HUB1',
      created_date: localIso(2007, 7, 7, 1),
      device_type: 'mobile',
      expected_brand: 'Samsung',
      expected_model: 'Galaxy S23',
      is_blindpick: 'false',
      status: 'Pending',
      submitted_by: '',
      submit_time: '',
      submitted_device: '',
      submitted_manufacturer: '',
      device_result: '',
      verified_by: '',
      verify_time: '',
      verified_by_rc: '',
      verify_time_rc: '',
    });
    expect(rows[1]).toMatchObject({
      submitted_by: 'wm1',
      submit_time: times.submit,
      submitted_device: 'Galaxy S23',
      submitted_manufacturer: 'Samsung Electronics',
      device_result: 'E006',
      verified_by: '',
      verify_time: '',
    });
    expect(rows[3]).toMatchObject({
      submitted_by: 'wm1',
      verified_by: 'exec1',
      verify_time: times.verify,
      verified_by_rc: 'rc1',
      verify_time_rc: times.rc,
      device_result: 'passed',
    });
  });

  test('a blind pick shows the blind brand and model as expected device and is_blindpick true; missing values are empty cells', async () => {
    const other = { device_brand: 'Other', device_model_name: 'Other' };
    await insertRecords([
      {
        tracking_id: 'B-blind',
        created_date: localIso(2008, 8, 8, 1),
        is_blindpick: 1,
        blind_brand: 'boAt',
        blind_model: 'Airdopes 141',
        ...other,
      },
      {
        tracking_id: 'B-blind-missing',
        created_date: localIso(2008, 8, 8, 2),
        is_blindpick: 1,
        blind_brand: null,
        blind_model: null,
        ...other,
      },
      {
        tracking_id: 'B-normal',
        created_date: localIso(2008, 8, 8, 3),
        blind_brand: 'Ignored',
        blind_model: 'Ignored',
        device_brand: 'Dell',
        device_model_name: 'Inspiron 15',
      },
      { tracking_id: 'B-normal-missing', created_date: localIso(2008, 8, 8, 4), hub_code: null, device_type: null },
    ]);
    const rows = await reportRows(as.executive!, '2008-08-08', '2008-08-08');
    expect(rows.map((r) => [r.tracking_id, r.expected_brand, r.expected_model, r.is_blindpick])).toEqual([
      ['B-blind', 'boAt', 'Airdopes 141', 'true'],
      ['B-blind-missing', '', '', 'true'],
      ['B-normal', 'Dell', 'Inspiron 15', 'false'],
      ['B-normal-missing', '', '', 'false'],
    ]);
    expect(rows[3]).toMatchObject({ hub_code: '', device_type: '' });
  });

  test('a removed user leaves an empty name where the step is recorded', async () => {
    const submitTime = '2009-09-09T10:00:00.000Z';
    await insertRecords([
      {
        tracking_id: 'U-unknown',
        created_date: localIso(2009, 9, 9),
        is_submit: 1,
        submit_time: submitTime,
        submitted_by_id: null,
      },
    ]);
    const [row] = await reportRows(as.executive!, '2009-09-09', '2009-09-09');
    expect(row).toMatchObject({
      tracking_id: 'U-unknown',
      status: 'Submitted for verification',
      submitted_by: '',
      submit_time: submitTime,
    });
  });
});

describe('generate_csv: escaping', () => {
  test('cells starting with = + - @ (formula injection) gain a leading quote; commas, quotes and line breaks survive a round trip', async () => {
    const values = [
      '=SUM(A1:A9)',
      '+44 20',
      '-1',
      '@SUM(1)',
      'a,b',
      'say "hi"',
      'line1\nline2',
      'line1\r\nline2',
      '=HYPERLINK("http://x","y")',
      'Ünïcødé ✓',
      'plain',
    ];
    await insertRecords(
      values.map((value, i) => ({
        tracking_id: `E${i}`,
        created_date: localIso(2010, 10, 10, 0, 0, i),
        device_brand: value,
        submitted_manufacturer: value,
      })),
    );
    const answer = await download(as.executive!, { start_date: '2010-10-10', end_date: '2010-10-10' });
    expect(answer.text).toContain('"say ""hi"""');
    const rows = await reportRows(as.executive!, '2010-10-10', '2010-10-10');
    const defused = (value: string) => (/^[=+\-@]/.test(value) ? `'${value}` : value);
    expect(rows.map((r) => r.expected_brand)).toEqual(values.map(defused));
    expect(rows.map((r) => r.submitted_manufacturer)).toEqual(values.map(defused));
  });
});

describe('generate_csv: validation', () => {
  const cases: [string, unknown, string, string][] = [
    ['both dates missing', {}, 'start_date', 'Both start and end dates are required'],
    ['start date missing', { end_date: '2025-01-01' }, 'start_date', 'Both start and end dates are required'],
    ['end date missing', { start_date: '2025-01-01' }, 'end_date', 'Both start and end dates are required'],
    [
      'start date empty',
      { start_date: ' ', end_date: '2025-01-01' },
      'start_date',
      'Both start and end dates are required',
    ],
    [
      'start date in another format',
      { start_date: '01/02/2025', end_date: '2025-01-03' },
      'start_date',
      'Start date must be a date in the form YYYY-MM-DD.',
    ],
    [
      'end date with a time',
      { start_date: '2025-01-02', end_date: '2025-01-03T10:00' },
      'end_date',
      'End date must be a date in the form YYYY-MM-DD.',
    ],
    [
      'start date a number',
      { start_date: 20250102, end_date: '2025-01-03' },
      'start_date',
      'Start date must be a date in the form YYYY-MM-DD.',
    ],
    [
      'impossible start date',
      { start_date: '2025-02-30', end_date: '2025-03-03' },
      'start_date',
      'Start date 2025-02-30 is not a valid calendar date.',
    ],
    [
      'impossible end date',
      { start_date: '2025-01-02', end_date: '2025-13-01' },
      'end_date',
      'End date 2025-13-01 is not a valid calendar date.',
    ],
    [
      'start after end',
      { start_date: '2025-01-03', end_date: '2025-01-02' },
      'start_date',
      'Start date cannot be later than end date',
    ],
  ];
  test.each(cases)('%s: 400 {detail, error, field}', async (_name, body, field, message) => {
    const answer = await download(as.executive!, body);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ detail: message, error: message, field });
  });
});

describe('generate_csv: roles', () => {
  beforeAll(() => insertRecords([{ tracking_id: 'ROLE-1', created_date: localIso(2011, 11, 11) }]));

  test.each(['executive', 'incharge', 'central_ops', 'admin', 'super_admin'])(
    '%s may download the report',
    async (role) => {
      expect(trackingIds(await reportRows(as[role]!, '2011-11-11', '2011-11-11'))).toEqual(['ROLE-1']);
    },
  );

  test('answers 401 without a session', async () => {
    const client = api.client();
    await client.get('user/is_LoggedIn/');
    expect((await download(client, { start_date: '2011-11-11', end_date: '2011-11-11' })).status).toBe(401);
  });

  test('answers 403 without the request-forgery header', async () => {
    const client = await api.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);
    const answer = await client.post(
      'api/generate_csv/',
      { start_date: '2011-11-11', end_date: '2011-11-11' },
      { xsrf: false },
    );
    expect(answer.status).toBe(403);
  });
});

function rawPost(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ headers: http.IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, bytes: Buffer.concat(chunks) }));
    });
    request.on('error', reject).end(body);
  });
}
