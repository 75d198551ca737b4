// api/dashboard/ (docs/dashboard.md#server-side-figures): its contract, and the summaries kept in
// step by every write path (upload, doorstep submission and resubmission, hub and RC verification,
// a user's deletion), each compared with what the console computes from api/get_status/ and with
// the summaries rebuilt from the records.
import { Migrator, sql } from 'kysely';
import { makeRecord } from '@veritas/shared/testing/records';
import { PIE_RESULTS, type Selection } from '@veritas/shared/domain';
import { planWindow, type FiguresRequest } from '../src/dashboard/figures';
import { figuresInTurn } from '../src/dashboard/turns';
import { DashboardChanges, rebuildDashboardSummaries } from '../src/dashboard/dashboard-summaries';
import { fieldUserOf, submitDevice, verifyAtHub, verifyAtRc, type FieldUser } from '../src/scan/field-scans';
import { migrationsFor } from '../src/db/migrations';
import { migrateToLatest, openDatabase } from '../src/server';
import { writeSummaries } from '../src/writes/summary-tables';
import { build, Client, freshDatabase, uploadCsv } from './support/build';
import { onPostgres } from './support/database';
import { bothFigures, dashboardPath, emptyRecords, insertRecords, summaryRows } from './support/dashboard';

let now = new Date('2025-03-15T06:30:00.000Z');

const api = build({
  groups: [
    { code: 'BLR01', organization: 'hub' },
    { code: 'DEL02', organization: 'hub' },
    { code: 'RC1', organization: 'RC' },
  ],
  users: [
    { username: 'op1', role: 'operators', group: 'BLR01' },
    { username: 'op2', role: 'operators', group: 'BLR01' },
    { username: 'exec1', role: 'executive', group: 'BLR01' },
    { username: 'rc1', role: 'executive', group: 'RC1' },
    { username: 'admin1', role: 'admin' },
  ],
  signIn: { admin: 'admin1', executive: 'exec1' },
  server: { clock: () => now },
});

const KOLKATA = 'Asia/Kolkata';

describe('the call', () => {
  const query = (params: Record<string, string>) => `api/dashboard/?${new URLSearchParams(params)}`;

  test('answers 401 without a session', async () => {
    expect((await api.client().get(query({ hub: 'all', timeframe: 'today', tz: KOLKATA }))).status).toBe(401);
  });

  test('answers every signed-in console user, never cached, with exactly the fields of DashboardStats', async () => {
    for (const client of [api.as.admin!, api.as.executive!]) {
      const answer = await client.get(query({ hub: 'all', timeframe: 'last7', tz: KOLKATA }));
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(Object.keys(answer.body).sort()).toEqual(
        ['verified', 'pending', 'rejection', 'days', 'trend', 'volume', 'errors', 'topHubs', 'topOperators'].sort(),
      );
      expect(answer.body.days).toHaveLength(7);
    }
  });

  test.each([
    [{ timeframe: 'today', tz: KOLKATA }, 'hub', "Choose a hub: 'all' or a hub code."],
    [{ hub: '', timeframe: 'today', tz: KOLKATA }, 'hub', "Choose a hub: 'all' or a hub code."],
    [{ hub: 'all', tz: KOLKATA }, 'timeframe', 'Choose a timeframe: today, last7, last15, last30.'],
    [
      { hub: 'all', timeframe: 'last8', tz: KOLKATA },
      'timeframe',
      "Unknown timeframe 'last8': use today, last7, last15, last30.",
    ],
    [
      { hub: 'all', timeframe: ' today', tz: KOLKATA },
      'timeframe',
      "Unknown timeframe ' today': use today, last7, last15, last30.",
    ],
    [{ hub: 'all', timeframe: 'today' }, 'tz', "Give the viewer's time zone (an IANA name such as Asia/Kolkata)."],
    [
      { hub: 'all', timeframe: 'today', tz: 'Mars/Olympus' },
      'tz',
      "Unknown time zone 'Mars/Olympus': give an IANA name such as Asia/Kolkata.",
    ],
    [
      { hub: 'all', timeframe: 'today', tz: '+05:30' },
      'tz',
      "Unknown time zone '+05:30': give an IANA name such as Asia/Kolkata.",
    ],
    [
      { hub: 'all', timeframe: 'today', tz: 'x'.repeat(101) },
      'tz',
      'Unknown time zone: give an IANA name such as Asia/Kolkata.',
    ],
  ])('answers 400 for %j', async (params, field, detail) => {
    const answer = await api.as.admin!.get(query(params as Record<string, string>));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ detail, field });
  });

  test('a time zone is read ignoring case, as Intl reads it', async () => {
    expect((await api.as.admin!.get(query({ hub: 'all', timeframe: 'today', tz: 'asia/kolkata' }))).status).toBe(200);
  });

  test('a server offering the spec alone answers 404', async () => {
    const server = await api.start({ specOnly: true });
    try {
      const other = new Client(server.url);
      expect((await other.login('admin1')).status).toBe(200);
      const answer = await other.get(query({ hub: 'all', timeframe: 'today', tz: KOLKATA }));
      expect(answer.status).toBe(404);
      expect((await other.get('user/get_role/')).body.features).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

test('planWindow: whole UTC days inside, whole hours at the ends, the rest from the records', () => {
  const hour = 3_600_000;
  const day = 24 * hour;
  // Asia/Kolkata: days start at 18:30 UTC.
  const start = Date.UTC(2025, 2, 13, 18, 30);
  expect(planWindow([start, start + day, start + 2 * day])).toEqual({
    buckets: [
      { span: 24, from: Date.UTC(2025, 2, 14) / hour, to: Date.UTC(2025, 2, 15) / hour },
      { span: 1, from: Date.UTC(2025, 2, 13, 19) / hour, to: Date.UTC(2025, 2, 14) / hour },
      { span: 1, from: Date.UTC(2025, 2, 15) / hour, to: Date.UTC(2025, 2, 15, 18) / hour },
    ],
    rest: [
      [start, Date.UTC(2025, 2, 13, 19)],
      [Date.UTC(2025, 2, 15, 18), start + 2 * day],
    ],
  });
  // UTC: whole days only.
  expect(planWindow([Date.UTC(2025, 2, 14), Date.UTC(2025, 2, 15)])).toEqual({
    buckets: [{ span: 24, from: Date.UTC(2025, 2, 14) / hour, to: Date.UTC(2025, 2, 15) / hour }],
    rest: [],
  });
  // A day not starting on a quarter hour (Africa/Monrovia before 1972: -0:44:30): all from the records.
  const monrovia = Date.UTC(1971, 5, 1, 0, 44, 30);
  expect(planWindow([monrovia, monrovia + day])).toEqual({ buckets: [], rest: [[monrovia, monrovia + day]] });
});

describe('calls taking their turn (turns.ts)', () => {
  const request = (change: Partial<FiguresRequest> = {}): FiguresRequest => ({
    hub: 'all',
    timeframe: 'today',
    timeZone: KOLKATA,
    now,
    ...change,
  });
  /** Two turns of the event loop: a count asked for before has started. */
  const countsStarted = async () => {
    await new Promise(setImmediate);
    await new Promise(setImmediate);
  };

  test('calls for one selection waiting together share one count; another selection counts its own', async () => {
    const figures = figuresInTurn(api.db);
    const [first, same, sameAgain, otherHub, otherZone, otherTimeframe] = await Promise.all([
      figures(request()),
      figures(request()),
      figures(request()),
      figures(request({ hub: 'BLR01' })),
      figures(request({ timeZone: 'UTC' })),
      figures(request({ timeframe: 'last7' })),
    ]);
    expect(same).toBe(first);
    expect(sameAgain).toBe(first);
    for (const other of [otherHub, otherZone, otherTimeframe]) expect(other).not.toBe(first);
  });

  test('a call coming once the count has started counts again, so it sees a write committed meanwhile', async () => {
    const figures = figuresInTurn(api.db);
    const earlier = await figures(request());
    const started = figures(request());
    await countsStarted();
    const csv = [
      'tracking_id,hub_code,device_type,device_brand,device_model_name,created_date',
      `TURN1,BLR01,mobile,Samsung,Galaxy S24,${now.toISOString()}`,
    ].join('\n');
    const [answer] = await uploadCsv(api.as.admin!, 'shipment.csv', csv);
    expect(answer!.body.processed).toBe(1);
    const [before, after] = await Promise.all([started, figures(request())]);
    expect(after).not.toBe(before);
    // The count under way may or may not see the write, as its snapshot began; the later one must.
    expect(after.pending).toBe(earlier.pending + 1);
  });
});

describe('summaries kept in step by every write path', () => {
  const selections: Selection[] = [
    { hub: 'all', timeframe: 'last7' },
    { hub: 'blr01', timeframe: 'today' },
    { hub: 'BLR01', timeframe: 'last30' },
    { hub: 'del02', timeframe: 'last15' },
  ];
  /** Every selection, in three zones, equal to the console's figures; and the summaries equal to a rebuild. */
  async function expectInStep() {
    for (const zone of [KOLKATA, 'America/New_York', 'Asia/Kathmandu']) {
      for (const selection of selections) {
        const { server, console: expected } = await bothFigures(api.as.admin!, selection, zone, now);
        expect([zone, selection, server]).toEqual([zone, selection, expected]);
      }
    }
    const maintained = await summaryRows(api.db);
    await rebuildDashboardSummaries(api.db);
    expect(await summaryRows(api.db)).toEqual(maintained);
  }

  const user = async (username: string): Promise<FieldUser> => {
    const { id } = await api.db.kysely
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    return (await fieldUserOf(api.db, id))!;
  };
  const at = (iso: string) => new Date(iso);
  const scan = (tracking_id: string, mac: string, model = 'Galaxy S24') => ({
    tracking_id,
    mac_address: mac,
    model,
    hardware_id: `HW-${tracking_id}`,
  });

  beforeAll(async () => {
    await emptyRecords(api.db);
    now = new Date('2025-03-15T06:30:00.000Z');
  });

  test('an upload counts its new records as pending, a repeated tracking ID once', async () => {
    const csv = [
      'tracking_id,hub_code,device_type,device_brand,device_model_name,created_date',
      'T1,BLR01,mobile,Samsung,Galaxy S24,2025-03-14T20:00:00.000Z',
      'T2,blr01,mobile,Samsung,Galaxy S24,2025-03-14T18:29:59.999Z',
      'T3,BLR01,mobile,Samsung,Galaxy S24,2025-03-14T18:30:00.000Z',
      'T4,DEL02,mobile,Samsung,Galaxy S24,2025-03-10T00:00:00.000Z',
      'T5,BLR01,mobile,Samsung,Galaxy S24,2025-03-15T06:00:00.000Z',
      'T1,BLR01,mobile,Samsung,Galaxy S24,2025-03-01T00:00:00.000Z',
    ].join('\n');
    const [answer] = await uploadCsv(api.as.admin!, 'shipment.csv', csv);
    expect(answer!.body.processed).toBe(5);
    await expectInStep();
  });

  test('a doorstep submission, a resubmission by the same operator, and another operator', async () => {
    await submitDevice(api.db, await user('op1'), scan('T1', '00:00:F0:00:00:01'), at('2025-03-14T22:10:00.000Z'));
    await expectInStep();
    // A resubmission with another model: the result (and so the rejection) changes.
    await submitDevice(
      api.db,
      await user('op1'),
      scan('T1', '00:00:F0:00:00:02', 'Galaxy S99'),
      at('2025-03-15T01:00:00.000Z'),
    );
    await expectInStep();
    await submitDevice(api.db, await user('op2'), scan('T3', '00:00:F0:00:00:03'), at('2025-03-14T18:44:59.999Z'));
    await submitDevice(api.db, await user('op2'), scan('T5', '00:00:F0:00:00:05'), at('2025-03-15T06:15:00.000Z'));
    await expectInStep();
  });

  test('a hub verification moves a record from the doorstep volume to the hub', async () => {
    const before = await bothFigures(api.as.admin!, { hub: 'all', timeframe: 'last7' }, KOLKATA, now);
    await verifyAtHub(
      api.db,
      await user('exec1'),
      { tracking_id: 'T1', hardware_id: 'HW-T1' },
      at('2025-03-15T05:00:00.000Z'),
    );
    const after = await bothFigures(api.as.admin!, { hub: 'all', timeframe: 'last7' }, KOLKATA, now);
    expect(after.server.volume.hub.at(-1)).toBe(before.server.volume.hub.at(-1)! + 1);
    await expectInStep();
  });

  test('a verification at the return centre changes no figure and no summary', async () => {
    const before = await summaryRows(api.db);
    await verifyAtRc(
      api.db,
      await user('rc1'),
      { tracking_id: 'T1', hardware_id: 'HW-T1' },
      at('2025-03-15T06:00:00.000Z'),
    );
    expect(await summaryRows(api.db)).toEqual(before);
    await expectInStep();
  });

  test("a deleted operator's submissions count as Unknown", async () => {
    const { id } = await api.db.kysely
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'op2')
      .executeTakeFirstOrThrow();
    expect((await api.superAdmin.post('user/delete_user/', { user_id: id })).status).toBe(200);
    const { server } = await bothFigures(api.as.admin!, { hub: 'all', timeframe: 'last7' }, KOLKATA, now);
    expect(server.topOperators.map((row) => row.name)).toContain('Unknown');
    await expectInStep();
  });

  test('records of any state and time, stored in bulk, counted after a rebuild', async () => {
    const created = (iso: string | null) => ({
      tracking_id: { hub_code: 'BLR01', created_date: iso, tracking_id: `B-${iso}-${Math.random()}` },
    });
    await insertRecords(api.db, [
      makeRecord({
        ...created('2025-03-14T18:30:00.000Z'),
        is_verified: true,
        verify_time: '2025-03-15T00:00:00.000Z',
        device_result: 'E008',
      }),
      makeRecord({
        ...created('2025-03-14T18:15:00.000Z'),
        is_submit: true,
        submit_time: '2025-03-15T02:00:00.000Z',
        device_result: null,
      }),
      makeRecord({
        ...created('2025-03-13'),
        is_submit: true,
        is_verified: true,
        submit_time: 'garbage',
        verify_time: null,
        device_result: 'E004',
      }),
      makeRecord({
        ...created('2025-03-14T12:00:00+05:30'),
        submitted_by: { username: 'op1' },
        is_submit: true,
        device_result: 'passed',
      }),
      makeRecord({ ...created('not-a-date'), is_submit: true, device_result: 'E005' }),
      makeRecord({ ...created(null), is_submit: true, device_result: 'E005' }),
    ]);
    await rebuildDashboardSummaries(api.db);
    await expectInStep();
  });

  onPostgres(
    'a rebuild writes the rows of each of its statements in the order of the primary key, so a range lies on few pages',
    async () => {
      await emptyRecords(api.db);
      await insertRecords(
        api.db,
        ['DEL02', 'BLR01', 'DEL02', 'BLR01', 'DEL02'].flatMap((hub_code, day) =>
          ['E005', 'passed', 'E003', 'E004'].map((device_result, n) =>
            makeRecord({
              tracking_id: { tracking_id: `K${day}${n}`, hub_code, created_date: `2025-03-1${day}T0${n}:00:00.000Z` },
              submitted_by: { username: n % 2 ? 'op2' : 'op1' },
              is_submit: true,
              submit_time: `2025-03-1${day}T1${n}:00:00.000Z`,
              device_result,
            }),
          ),
        ),
      );
      await rebuildDashboardSummaries(api.db);
      // Each table's key, and how many statements of the rebuild write it: the hour rows, the day
      // rows; the series' hour rows per event (2) and for all hubs.
      const tables = [
        { table: 'dashboard_counts', key: 'span, bucket, hub_code', statements: 2 },
        { table: 'dashboard_operators', key: 'span, bucket, hub_code, operator_id', statements: 2 },
        { table: 'dashboard_series', key: 'all_hubs, hub_code, span, bucket, event, quarter', statements: 4 },
      ];
      for (const { table, key, statements } of tables) {
        // Raw: the physical order (ctid) and row comparisons have no place in Kysely's builder.
        const { rows } = await sql<{ stored: string; descents: string }>`
        select count(*) as stored, count(*) filter (where row(${sql.raw(key)}) < previous) as descents
        from (select ${sql.raw(key)}, lag(row(${sql.raw(key)})) over (order by ctid) as previous
              from ${sql.table(table)}) as rows`.execute(api.db.kysely);
        const { stored, descents } = rows[0]!;
        expect(Number(stored)).toBeGreaterThan(10);
        // Each statement's rows in order: the order falls back only where the next statement begins.
        expect([table, Number(descents) < statements]).toEqual([table, true]);
      }
    },
  );

  test('a zone whose days do not start on a quarter hour is counted from the records alone', async () => {
    await emptyRecords(api.db);
    now = new Date('1971-06-01T12:00:00.000Z');
    await insertRecords(api.db, [
      makeRecord({ tracking_id: { tracking_id: 'M1', hub_code: 'BLR01', created_date: '1971-06-01T00:44:29.999Z' } }),
      makeRecord({ tracking_id: { tracking_id: 'M2', hub_code: 'BLR01', created_date: '1971-06-01T00:44:30.000Z' } }),
    ]);
    await rebuildDashboardSummaries(api.db);
    const { server, console: expected } = await bothFigures(
      api.as.admin!,
      { hub: 'all', timeframe: 'today' },
      'Africa/Monrovia',
      now,
    );
    expect(server).toEqual(expected);
    expect(server.pending).toBe(1);
  });
});

test('migration 007 gives the records already stored their ms columns and builds the summaries from them', async () => {
  const older = await freshDatabase();
  const db = openDatabase(older.options);
  try {
    const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: async () => migrationsFor(db.engine) } });
    expect((await migrator.migrateTo('005_login_throttle')).error).toBeUndefined();
    await sql`
      insert into device_records (tracking_id, hub_code, created_date, is_submit, submit_time, device_result, is_verified, verify_time)
      values ('OLD1', 'BLR01', '2025-03-14T10:00:00.000Z', 1, '2025-03-14T11:00:00.000Z', 'E004', 1, '2025-03-14T12:00:00.000Z'),
             ('OLD2', 'blr01', 'not-a-date', 0, null, null, 0, null),
             ('OLD3', null, '2025-03-13', 0, null, null, 0, null)`.execute(db.kysely);
    await migrateToLatest(db);
    const rows = await db.kysely
      .selectFrom('device_records')
      .select(['tracking_id', 'created_ms', 'submit_ms', 'verify_ms'])
      .orderBy('tracking_id')
      .execute();
    expect(
      rows.map((row) =>
        [row.tracking_id, row.created_ms, row.submit_ms, row.verify_ms].map((v) =>
          v === null || (typeof v === 'string' && !/^\d+$/.test(v)) ? v : Number(v),
        ),
      ),
    ).toEqual([
      ['OLD1', Date.UTC(2025, 2, 14, 10), Date.UTC(2025, 2, 14, 11), Date.UTC(2025, 2, 14, 12)],
      ['OLD2', null, null, null],
      ['OLD3', Date.UTC(2025, 2, 13), null, null],
    ]);
    const built = await summaryRows(db);
    expect(built.dashboard_counts!.length).toBeGreaterThan(0);
    expect(built.dashboard_hubs).toEqual([
      '{"hub_code":"","hub_key":""}',
      '{"hub_code":"BLR01","hub_key":"blr01"}',
      '{"hub_code":"blr01","hub_key":"blr01"}',
    ]);
    await rebuildDashboardSummaries(db);
    expect(await summaryRows(db)).toEqual(built);
  } finally {
    await db.kysely.destroy();
    await older.drop();
  }
});

test('dashboardPath names the hub, the timeframe and the zone', () => {
  expect(dashboardPath({ hub: 'all', timeframe: 'today' }, 'Asia/Kolkata')).toBe(
    'api/dashboard/?hub=all&timeframe=today&tz=Asia%2FKolkata',
  );
});

test('new records counted a group at a time (DashboardChanges.insertAll) change the summaries as counting them one by one does', () => {
  const HOUR = 3_600_000;
  const base = Date.parse('2025-03-10T00:00:00.000Z');
  const facts = Array.from({ length: 600 }, (_, i) => ({
    hub_code: ['BLR01', 'blr01', 'DEL02', null][i % 4]!,
    created_ms: i % 37 === 0 ? null : base + (i % 50) * (HOUR / 4),
    is_submit: (i % 3 === 0 ? 1 : 0) as 0 | 1,
    is_verified: (i % 5 === 0 ? 1 : 0) as 0 | 1,
    device_result: [null, 'passed', 'E004', 'E009'][i % 4]!,
    submitted_by_id: i % 3 === 0 ? 1 + (i % 2) : null,
    submit_ms: i % 3 === 0 ? base + i * 60_000 : null,
    verify_ms: i % 5 === 0 ? base + i * 90_000 : null,
  }));
  const oneByOne = new DashboardChanges();
  for (const record of facts) oneByOne.insert(record);
  expect(new DashboardChanges().insertAll(facts).tables()).toEqual(oneByOne.tables());
});

test('the SQL rebuild counts every kind of record as recordCounters, the counting rule, says', async () => {
  // Every input of the rule (submitted, verified, each result kind), with and without each time,
  // at times on both sides of 1970 and of hour and quarter-hour edges.
  const HOUR = 3_600_000;
  const times = [Date.UTC(2025, 2, 14, 23, 59, 59, 999), Date.UTC(2025, 2, 15), Date.UTC(1969, 11, 31, 23, 50)];
  const iso = (i: number, shift: number) => new Date(times[i % times.length]! + shift).toISOString();
  const records = [];
  let i = 0;
  for (const isSubmit of [false, true])
    for (const isVerified of [false, true])
      for (const result of [...PIE_RESULTS, 'E001', '', null])
        for (const created of [true, false])
          for (const submit of [true, false])
            for (const verify of [true, false]) {
              i++;
              records.push(
                makeRecord({
                  tracking_id: {
                    tracking_id: `K${i}`,
                    hub_code: ['BLR01', 'blr01', null][i % 3]!,
                    created_date: created ? iso(i, (i % 5) * HOUR) : 'not-a-date',
                  },
                  is_submit: isSubmit,
                  is_verified: isVerified,
                  device_result: result,
                  submitted_by: i % 2 ? { username: 'op1' } : null,
                  submit_time: submit ? iso(i + 1, (i % 7) * 15 * 60_000) : null,
                  verify_time: verify ? iso(i + 2, (i % 11) * 15 * 60_000 - 1) : null,
                }),
              );
            }
  await emptyRecords(api.db);
  await insertRecords(api.db, records);
  await rebuildDashboardSummaries(api.db);
  const rebuilt = await summaryRows(api.db);

  await emptyRecords(api.db);
  await insertRecords(api.db, records);
  const facts = await api.db.kysely
    .selectFrom('device_records')
    .select([
      'hub_code',
      'created_ms',
      'is_submit',
      'is_verified',
      'device_result',
      'submitted_by_id',
      'submit_ms',
      'verify_ms',
    ])
    .execute();
  const changes = new DashboardChanges().insertAll(
    facts.map((row) => ({
      ...row,
      created_ms: row.created_ms === null ? null : Number(row.created_ms),
      submit_ms: row.submit_ms === null ? null : Number(row.submit_ms),
      verify_ms: row.verify_ms === null ? null : Number(row.verify_ms),
    })),
  );
  await api.db.transaction((trx) => writeSummaries(trx, api.db, changes.tables()));
  expect(await summaryRows(api.db)).toEqual(rebuilt);
});
