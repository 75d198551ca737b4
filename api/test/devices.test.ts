// The server-side pick list (feature 'device-pages', docs/screens.md#server-side-pick-list):
// api/devices/, api/devices/count/ and api/devices/hubs/ against an oracle built from the
// console's own rules (@veritas/shared/domain) over every record of api/get_status/, on records
// loaded in bulk (with the rare values older data holds), uploaded, and worked by the field-scan
// engine; the derived columns, the search routes and migration 006 in-process.
import {
  ALL_HUBS,
  DEVICE_STATUS_KEYS,
  distinctHubCodes,
  hubCodeOf,
  recordStatus,
  recordTimestamp,
  resultDisplay,
  timeMs,
  timeValue,
  type DeviceRecord,
} from '@veritas/shared/domain';
import {
  makeRecord,
  seededRandom,
  volumeRecord,
  type VolumeHub,
  type VolumeOptions,
} from '@veritas/shared/testing/records';
import { Migrator, sql } from 'kysely';
import { migrationsFor } from '../src/db/migrations';
import { MISSING_TIME_MS, derivedColumns, type RecordFacts } from '../src/writes/derived-columns';
import { deviceCount, devicePage } from '../src/devices/pick-list';
import type { DeviceFilter, SearchTuning } from '../src/devices/pick-list-query';
import { countDevices } from '../src/devices/page-query';
import { estimateSearch } from '../src/devices/id-sample.postgres';
import { catchUpSearchIndex, holdRecordInserts, pauseSearchIndexing } from '../src/devices/search-index';
import { CATALOGUE } from '../seed/field/catalogue';
import { migrateToLatest, openDatabase } from '../src/server';
import { fieldUserOf, submitDevice, verifyAtHub, verifyAtRc } from '../src/scan/field-scans';
import { bulkLoad, storedRow } from '../seed/volume-data';
import { ENGINE, build, freshDatabase, onPostgres, signIn, uploadCsv, type Client } from './support/build';
import { storeShipment } from './support/shipment';
import { eventually } from '../../test-support/eventually';

const api = build({
  groups: [
    { code: 'HUB1', organization: 'hub' },
    { code: 'RC1', organization: 'RC' },
  ],
  users: [
    { username: 'op1', role: 'operators', group: 'HUB1' },
    { username: 'exec1', role: 'executive', group: 'HUB1' },
    { username: 'rc1', role: 'executive', group: 'RC1' },
    { username: 'admin1', role: 'admin' },
  ],
  signIn: { admin: 'admin1', executive: 'exec1' },
});

// --- The oracle: the console's rules over every record (toDeviceRows and filterRows) ---

interface Query {
  q?: string;
  hub?: string;
  status?: string;
  result?: string;
}

const STATUS_VALUES = ['pending', 'submitted', 'verified', 'detached'];
const RESULT_VALUES = ['passed', 'E001', 'E002', 'E003', 'E004', 'E005', 'E006', 'E007', 'E008', 'E009', 'E010'];

const sortKey = (r: DeviceRecord) => timeValue(recordTimestamp(r).time);

/** toDeviceRows's order: newest first, comparisons (two -Infinity are equal), ties by id descending. */
const inOrder = (records: readonly DeviceRecord[]) =>
  [...records].sort((a, b) => {
    const x = sortKey(a);
    const y = sortKey(b);
    return x === y ? b.id - a.id : x < y ? 1 : -1;
  });

function shownResult(r: DeviceRecord): string | null {
  const display = resultDisplay(r);
  return display === null ? null : display.kind === 'pass' ? 'passed' : display.code;
}

/** filterRows, plus the status and result filters: what each column shows. */
function matches(r: DeviceRecord, { q = '', hub = '', status = '', result = '' }: Query): boolean {
  const needle = q.trim().toLowerCase();
  const hubLower = hub.trim() && hub.trim() !== ALL_HUBS ? hub.trim().toLowerCase() : null;
  if (needle && !r.tracking_id.tracking_id.toLowerCase().includes(needle)) return false;
  if (hubLower && (hubCodeOf(r) ?? '').toLowerCase() !== hubLower) return false;
  if (status && DEVICE_STATUS_KEYS[recordStatus(r)] !== status) return false;
  if (result && shownResult(r) !== result) return false;
  return true;
}

let records: DeviceRecord[] = [];

/** Every record, as get_status answers it. */
async function everyRecord(): Promise<DeviceRecord[]> {
  const answer = await api.as.admin!.get('api/get_status/');
  expect(answer.status).toBe(200);
  return answer.body;
}

const expectedIds = (query: Query) => inOrder(records.filter((r) => matches(r, query))).map((r) => r.id);

const path = (call: string, params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value));
  return `${call}?${search}`;
};

/** Every page of a query, following `next`; the records as answered. */
async function allPages(
  query: Query,
  limit?: number,
  client: Client = api.as.executive!,
): Promise<{ records: DeviceRecord[]; pages: number }> {
  const found: DeviceRecord[] = [];
  let after: string | undefined;
  for (let pages = 1; pages <= 2000; pages++) {
    const answer = await client.get(path('api/devices/', { ...query, limit, after }));
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['next', 'records']);
    found.push(...answer.body.records);
    if (answer.body.next === null) return { records: found, pages };
    expect(typeof answer.body.next).toBe('string');
    expect(answer.body.records).toHaveLength(limit ?? 100);
    after = answer.body.next;
  }
  throw new Error('more than 2000 pages');
}

async function count(query: Query): Promise<number> {
  const answer = await api.as.executive!.get(path('api/devices/count/', { ...query }));
  expect(answer.status).toBe(200);
  return answer.body.total;
}

// --- The data ---

const SAME_TIME = '2025-06-01T12:00:00.000Z';

/** Records with the rare values older data holds, in this order (their ids follow it). */
const EDGE_RECORDS: DeviceRecord[] = [
  makeRecord({ tracking_id: { tracking_id: 'TIE-A', hub_code: 'HUB1', created_date: SAME_TIME } }),
  makeRecord({ tracking_id: { tracking_id: 'TIE-B', hub_code: 'HUB1', created_date: SAME_TIME } }),
  makeRecord({
    tracking_id: { tracking_id: 'TIE-SUBMITTED', hub_code: 'HUB1', created_date: '2025-01-01T00:00:00.000Z' },
    is_submit: true,
    submit_time: SAME_TIME,
    device_result: 'E004',
  }),
  makeRecord({ tracking_id: { tracking_id: 'TIE-C', hub_code: 'HUB1', created_date: SAME_TIME } }),
  // Missing or invalid times: last, by id descending.
  makeRecord({ tracking_id: { tracking_id: 'NOTIME-NULL', created_date: null } }),
  makeRecord({ tracking_id: { tracking_id: 'NOTIME-TEXT', created_date: 'not-a-date' } }),
  makeRecord({
    tracking_id: { tracking_id: 'NOTIME-SUBMIT', created_date: SAME_TIME },
    is_submit: true,
    submit_time: null,
    device_result: 'passed',
  }),
  makeRecord({
    tracking_id: { tracking_id: 'NOTIME-VERIFY', created_date: SAME_TIME },
    is_submit: true,
    submit_time: SAME_TIME,
    is_verified: true,
    verify_time: 'garbage',
    device_result: 'passed',
  }),
  // Verified without being submitted: Pending, yet its timestamp is the verify time and its result shows.
  makeRecord({
    tracking_id: { tracking_id: 'ODD-VERIFIED', hub_code: 'hub3' },
    is_verified: true,
    verify_time: '2025-07-01T00:00:00.000Z',
    device_result: 'E010',
  }),
  // A date alone is UTC midnight (Date.parse), equal to this offset time.
  makeRecord({ tracking_id: { tracking_id: 'DAY-ONLY', created_date: '2025-05-05' } }),
  makeRecord({ tracking_id: { tracking_id: 'DAY-OFFSET', created_date: '2025-05-05T05:30:00+05:30' } }),
  // The extremes a Date holds.
  makeRecord({ tracking_id: { tracking_id: 'TIME-MAX', created_date: '+275760-09-13T00:00:00.000Z' } }),
  makeRecord({ tracking_id: { tracking_id: 'TIME-MIN', created_date: '-271821-04-20T00:00:00.000Z' } }),
  // Hub spellings: compared trimmed and ignoring case; the choices show the first spelling.
  makeRecord({ tracking_id: { tracking_id: 'HUB-PADDED', hub_code: '  hub1 ' } }),
  makeRecord({ tracking_id: { tracking_id: 'HUB-MIXED', hub_code: 'Hub1' } }),
  makeRecord({ tracking_id: { tracking_id: 'HUB-UPPER3', hub_code: 'HUB3' } }),
  makeRecord({ tracking_id: { tracking_id: 'HUB-NONE', hub_code: null } }),
  makeRecord({ tracking_id: { tracking_id: 'HUB-BLANK', hub_code: '   ' } }),
  makeRecord({ tracking_id: { tracking_id: 'HUB-ALL', hub_code: 'all' } }),
  // Results shown only once submitted or verified, and only 'passed' or E…
  makeRecord({ tracking_id: { tracking_id: 'RESULT-PENDING' }, device_result: 'passed' }),
  makeRecord({
    tracking_id: { tracking_id: 'RESULT-OTHER' },
    is_submit: true,
    submit_time: '2025-02-02T00:00:00.000Z',
    device_result: 'unknown',
  }),
  makeRecord({
    tracking_id: { tracking_id: 'RESULT-E999' },
    is_submit: true,
    submit_time: '2025-02-03T00:00:00.000Z',
    device_result: 'E999',
  }),
  makeRecord({
    tracking_id: { tracking_id: 'DETACHED-1', hub_code: 'HUB1' },
    is_submit: true,
    submit_time: '2025-03-01T00:00:00.000Z',
    is_verified: true,
    verify_time: '2025-03-02T00:00:00.000Z',
    is_verified_rc: true,
    verify_time_rc: '2025-03-03T00:00:00.000Z',
    is_verified_rc_by: true,
    device_result: 'E008',
  }),
  // Tracking IDs for the search: case, LIKE's wildcards as text.
  makeRecord({ tracking_id: { tracking_id: 'Mixed_Case-Zz9' } }),
  makeRecord({ tracking_id: { tracking_id: 'under_score_1' } }),
  makeRecord({ tracking_id: { tracking_id: 'underXscore' } }),
  makeRecord({ tracking_id: { tracking_id: 'per%cent' } }),
];

const VOLUME_HUBS: VolumeHub[] = [
  { code: 'HUB1', operator: 'op1', verifier: 'exec1', rc: 'rc1' },
  { code: 'HUB2', operator: 'op2', verifier: 'exec2', rc: 'rc1' },
  { code: 'HUB4', operator: 'op4', verifier: 'exec4', rc: 'rc1' },
];
const VOLUME_RECORDS = 360;

beforeAll(async () => {
  const users = await api.db.kysely.selectFrom('users').select(['id', 'username']).execute();
  const userIds = new Map(users.map((u) => [u.username, u.id]));
  const volume: VolumeOptions = {
    rand: seededRandom(7),
    now: Date.parse('2025-06-15T00:00:00Z'),
    count: VOLUME_RECORDS,
    hubs: VOLUME_HUBS,
    devices: CATALOGUE,
  };
  const rows = [
    ...EDGE_RECORDS.map((record) => storedRow(record, userIds)),
    ...Array.from({ length: volume.count }, (_, i) => storedRow(volumeRecord(i, volume), userIds)),
  ];
  await bulkLoad(api.db, rows);
  records = await everyRecord();
});

/** The stored fields of a record that its derived columns come from. */
const factsOf = (r: DeviceRecord): RecordFacts => ({
  hub_code: r.tracking_id.hub_code,
  created_date: r.tracking_id.created_date,
  is_submit: r.is_submit ? 1 : 0,
  submit_time: r.submit_time,
  is_verified: r.is_verified ? 1 : 0,
  verify_time: r.verify_time,
  is_verified_rc_by: r.is_verified_rc_by ? 1 : 0,
  device_result: r.device_result,
});

describe('derived columns', () => {
  test("are the console's rules: timestamp (missing last), hub compared lower-cased, status, the result shown", () => {
    const volume: VolumeOptions = {
      rand: seededRandom(3),
      now: Date.now(),
      count: 2000,
      hubs: VOLUME_HUBS,
      devices: CATALOGUE,
    };
    const all = [...EDGE_RECORDS, ...Array.from({ length: volume.count }, (_, i) => volumeRecord(i, volume))];
    for (const r of all) {
      const time = sortKey(r);
      expect(derivedColumns(factsOf(r))).toEqual({
        sort_ms: Number.isFinite(time) ? time : MISSING_TIME_MS,
        hub_key: hubCodeOf(r)?.toLowerCase() ?? null,
        status_key: DEVICE_STATUS_KEYS[recordStatus(r)],
        result_key: shownResult(r),
        created_ms: timeMs(r.tracking_id.created_date),
        submit_ms: timeMs(r.submit_time),
        verify_ms: timeMs(r.verify_time),
      });
    }
  });

  test('a missing time sorts below the earliest time a Date holds', () => {
    expect(MISSING_TIME_MS).toBeLessThan(Date.parse('-271821-04-20T00:00:00.000Z'));
    expect(Number.isSafeInteger(MISSING_TIME_MS)).toBe(true);
  });
});

describe('api/devices/', () => {
  test('orders newest first by the timestamp rule; missing or invalid times last; equal times by id descending', async () => {
    const { records: page } = await allPages({}, 500);
    expect(page.map((r) => r.id)).toEqual(expectedIds({}));
    const position = (trackingId: string) => page.findIndex((r) => r.tracking_id.tracking_id === trackingId);
    // Equal times, whichever field they come from: the higher id first.
    expect(['TIE-C', 'TIE-SUBMITTED', 'TIE-B', 'TIE-A'].map(position)).toEqual(
      [0, 1, 2, 3].map((n) => position('TIE-C') + n),
    );
    expect(position('DAY-OFFSET')).toBe(position('DAY-ONLY') - 1);
    // The latest time a Date holds first; the earliest just before the records without a time.
    expect(position('TIME-MAX')).toBe(0);
    const last = page.slice(-4).map((r) => r.tracking_id.tracking_id);
    expect(last).toEqual(['NOTIME-VERIFY', 'NOTIME-SUBMIT', 'NOTIME-TEXT', 'NOTIME-NULL']);
    const withoutTime = records.filter((r) => sortKey(r) === Number.NEGATIVE_INFINITY).length;
    expect(withoutTime).toBeGreaterThan(4);
    expect(position('TIME-MIN')).toBe(page.length - withoutTime - 1);
  });

  test('answers records in the exact shape of get_status', async () => {
    const { records: page } = await allPages({}, 500);
    const byId = new Map(records.map((r) => [r.id, r]));
    for (const r of page) expect(JSON.stringify(r)).toBe(JSON.stringify(byId.get(r.id)));
  });

  test('keyset paging returns every record exactly once across pages, whatever the page size', async () => {
    const expected = expectedIds({});
    for (const limit of [1, 7, 100, 500]) {
      const { records: page, pages } = await allPages({}, limit);
      expect(page.map((r) => r.id)).toEqual(expected);
      expect(new Set(page.map((r) => r.id)).size).toBe(records.length);
      expect(pages).toBe(Math.max(1, Math.ceil(records.length / limit)));
    }
  });

  test('a page size that divides the records exactly ends with next: null on the last full page', async () => {
    const { pages } = await allPages({}, records.length);
    expect(pages).toBe(1);
  });

  test('limit defaults to 100', async () => {
    const answer = await api.as.executive!.get('api/devices/');
    expect(answer.body.records).toHaveLength(100);
    expect(answer.body.records.map((r: DeviceRecord) => r.id)).toEqual(expectedIds({}).slice(0, 100));
  });

  test('hub: compared trimmed and ignoring case, to the hub code as stored; "all" and empty mean every hub', async () => {
    for (const hub of ['HUB1', 'hub1', ' Hub1 ', 'HUB2', 'hub3', 'HUB4', 'nowhere', 'all', '', 'ALL']) {
      const { records: page } = await allPages({ hub }, 100);
      expect(page.map((r) => r.id)).toEqual(expectedIds({ hub }));
    }
    const hub1 = (await allPages({ hub: 'hub1' }, 500)).records.map((r) => r.tracking_id.tracking_id);
    expect(hub1).toEqual(expect.arrayContaining(['HUB-PADDED', 'HUB-MIXED', 'TIE-A']));
    expect(hub1).not.toContain('HUB-NONE');
    // 'ALL' is a hub code like any other (filterRows compares with ALL_HUBS as written).
    expect((await allPages({ hub: 'ALL' }, 100)).records.map((r) => r.tracking_id.tracking_id)).toEqual(['HUB-ALL']);
  });

  test('status: each value is the status the Status column shows', async () => {
    for (const status of STATUS_VALUES) {
      const { records: page } = await allPages({ status }, 100);
      expect(page.map((r) => r.id)).toEqual(expectedIds({ status }));
      expect(page.length).toBeGreaterThan(0);
    }
    expect((await allPages({ status: 'pending' }, 500)).records.map((r) => r.tracking_id.tracking_id)).toContain(
      'ODD-VERIFIED',
    );
  });

  test('result: passed or an E code, matching only records whose Result column shows it', async () => {
    for (const result of RESULT_VALUES) {
      const { records: page } = await allPages({ result }, 100);
      expect(page.map((r) => r.id)).toEqual(expectedIds({ result }));
    }
    const passed = (await allPages({ result: 'passed' }, 500)).records.map((r) => r.tracking_id.tracking_id);
    expect(passed).not.toContain('RESULT-PENDING');
    expect(passed).toContain('NOTIME-SUBMIT');
    expect((await allPages({ result: 'E010' }, 500)).records.map((r) => r.tracking_id.tracking_id)).toContain(
      'ODD-VERIFIED',
    );
  });

  test('q: a tracking ID substring, trimmed and ignoring case; short and long searches; LIKE wildcards are text', async () => {
    const searches = [
      '1',
      '12',
      ' 12 ',
      'zz',
      'ZZ9',
      'mixed_case',
      'MIXED_CASE-ZZ9',
      '_',
      'r_s',
      '%',
      'per%c',
      'fmpp',
      '31000001',
      'nothing-like-it',
      'tie',
    ];
    for (const q of searches) {
      const { records: page } = await allPages({ q }, 50);
      expect({ q, ids: page.map((r) => r.id) }).toEqual({ q, ids: expectedIds({ q }) });
    }
    expect((await allPages({ q: 'r_s' }, 50)).records.map((r) => r.tracking_id.tracking_id)).toEqual(['under_score_1']);
    expect((await allPages({ q: '  ' }, 500)).records).toHaveLength(records.length);
  });

  test('filters combine', async () => {
    const combinations: Query[] = [
      { hub: 'HUB1', status: 'submitted' },
      { hub: 'hub2', result: 'passed' },
      { status: 'verified', result: 'E007' },
      { hub: 'HUB1', status: 'detached', result: 'E008' },
      { q: '0', hub: 'HUB4', status: 'pending' },
      { q: '3100000', hub: 'HUB2', result: 'passed' },
      { q: '12', status: 'submitted' },
    ];
    for (const query of combinations) {
      const { records: page } = await allPages(query, 9);
      expect({ query, ids: page.map((r) => r.id) }).toEqual({ query, ids: expectedIds(query) });
    }
  });

  test('a cursor is a position in the order: it may be followed with other filters', async () => {
    const first = await api.as.executive!.get(path('api/devices/', { limit: 20 }));
    const answer = await api.as.executive!.get(
      path('api/devices/', { status: 'pending', after: first.body.next, limit: 500 }),
    );
    const lastSeen = first.body.records.at(-1) as DeviceRecord;
    const all = inOrder(records);
    const rest = all
      .slice(all.findIndex((r) => r.id === lastSeen.id) + 1)
      .filter((r) => matches(r, { status: 'pending' }));
    expect(answer.body.records.map((r: DeviceRecord) => r.id)).toEqual(rest.map((r) => r.id));
  });

  test('400 for a bad status, result, limit or cursor, naming the field', async () => {
    const client = api.as.executive!;
    const refused = async (params: Record<string, string>, field: string) => {
      const answer = await client.get(path('api/devices/', params));
      expect({ params, status: answer.status, field: answer.body.field }).toEqual({ params, status: 400, field });
      expect(typeof answer.body.detail).toBe('string');
      return answer.body.detail as string;
    };
    expect(await refused({ status: 'done' }, 'status')).toBe(
      'status must be one of pending, submitted, verified, detached.',
    );
    expect(await refused({ status: 'Pending' }, 'status')).toMatch(/^status must be/);
    expect(await refused({ result: 'E011' }, 'result')).toBe(
      'result must be passed or a device error code from E001 to E010.',
    );
    expect(await refused({ result: 'failed' }, 'result')).toMatch(/^result must be/);
    for (const limit of ['0', '501', '-1', '1.5', 'ten', '010']) {
      expect(await refused({ limit }, 'limit')).toBe('limit must be a whole number from 1 to 500.');
    }
    for (const after of [
      'not-a-cursor',
      Buffer.from('12.x').toString('base64url'),
      Buffer.from('1.0').toString('base64url'),
      '%%%',
    ]) {
      expect(await refused({ after }, 'after')).toBe(
        'after must be the next value of an earlier page, as the server wrote it.',
      );
    }
    const count = await client.get(path('api/devices/count/', { status: 'nope' }));
    expect([count.status, count.body.field]).toEqual([400, 'status']);
  });

  test('empty status, result and limit read as absent', async () => {
    const answer = await api.as.executive!.get(
      path('api/devices/', { status: '', result: '', limit: '', q: '', hub: '' }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.records.map((r: DeviceRecord) => r.id)).toEqual(expectedIds({}).slice(0, 100));
  });

  test('ids: the named records that pass the filters, in the order, and next null; unknown and repeated ids change nothing', async () => {
    const all = inOrder(records);
    // Every 7th record of the order, named in another order, with a repeat and an id no record has.
    const named = all.filter((_, i) => i % 7 === 3).map((r) => r.id);
    const unknown = Math.max(...records.map((r) => r.id)) + 1000;
    const ids = [...named].reverse().concat(named[0]!, unknown);
    expect(ids.length).toBeLessThanOrEqual(100);
    const queries: Query[] = [
      {},
      { hub: 'hub1' },
      { status: 'submitted' },
      { result: 'passed' },
      { q: '1' },
      { q: '0', hub: 'HUB4', status: 'pending' },
    ];
    const kept: number[] = [];
    for (const query of queries) {
      const answer = await api.as.executive!.get(path('api/devices/', { ...query, ids: ids.join(', ') }));
      expect(answer.status).toBe(200);
      const expected = all.filter((r) => named.includes(r.id) && matches(r, query));
      expect({ query, body: answer.body }).toEqual({ query, body: { records: expected, next: null } });
      kept.push(expected.length);
    }
    // Without filters every named record; each filter keeps some and drops others.
    expect(kept[0]).toBe(named.length);
    expect(kept.slice(1).every((n) => n > 0 && n < named.length)).toBe(true);
    expect((await api.as.executive!.get(path('api/devices/', { ids: String(unknown) }))).body).toEqual({
      records: [],
      next: null,
    });
    const hundred = all.slice(0, 100).map((r) => r.id);
    const full = await api.as.executive!.get(path('api/devices/', { ids: hundred.join(',') }));
    expect(full.body.records.map((r: DeviceRecord) => r.id)).toEqual(hundred);
  });

  test('400 naming ids unless they are 1 to 100 record ids separated by commas; with ids, after and limit are refused', async () => {
    const refused = async (params: Record<string, string>) => {
      const answer = await api.as.executive!.get(path('api/devices/', params));
      expect({ params, status: answer.status }).toEqual({ params, status: 400 });
      return [answer.body.field, answer.body.detail];
    };
    const message = 'ids must be at most 100 record ids (whole numbers from 1) separated by commas.';
    const tooMany = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    for (const ids of [
      '1,x',
      '0',
      '1,,2',
      '-1',
      '1.5',
      '01',
      '12345678901234567',
      '1;2',
      tooMany,
      `${'1,'.repeat(1000)}1`,
    ]) {
      expect(await refused({ ids })).toEqual(['ids', message]);
    }
    const next = (await api.as.executive!.get(path('api/devices/', { limit: 5 }))).body.next as string;
    expect(await refused({ ids: '1', limit: '5' })).toEqual([
      'limit',
      'With ids, after and limit do not apply: leave them out.',
    ]);
    expect(await refused({ ids: '1', after: next })).toEqual([
      'after',
      'With ids, after and limit do not apply: leave them out.',
    ]);
  });
});

describe('api/devices/count/', () => {
  test('equals the number of matching records, for every filter and combination, with and without a search', async () => {
    const queries: Query[] = [
      {},
      { hub: 'hub1' },
      { hub: 'all' },
      { hub: 'nowhere' },
      ...STATUS_VALUES.map((status) => ({ status })),
      ...RESULT_VALUES.map((result) => ({ result })),
      { hub: 'HUB2', status: 'verified', result: 'passed' },
      { q: '1' },
      { q: '12', hub: 'HUB1' },
      { q: 'fmpp' },
      { q: '3100000', status: 'pending' },
      { q: 'mixed_CASE' },
      { q: 'r_s' },
      { q: 'nothing-like-it' },
    ];
    for (const query of queries)
      expect({ query, total: await count(query) }).toEqual({ query, total: expectedIds(query).length });
  });
});

describe('api/devices/hubs/', () => {
  test('is distinctHubCodes over every record: trimmed, once per case-insensitive code in its first spelling, sorted', async () => {
    const answer = await api.as.executive!.get('api/devices/hubs/');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ hubs: distinctHubCodes([...records].sort((a, b) => a.id - b.id)) });
    expect(answer.body.hubs).toEqual(expect.arrayContaining(['all', 'HUB1', 'HUB2', 'hub3', 'HUB4']));
    for (const other of ['Hub1', 'hub1', 'HUB3', '', '   ']) expect(answer.body.hubs).not.toContain(other);
  });
});

describe('rights and the spec-only server', () => {
  test('401 without a session', async () => {
    for (const call of ['api/devices/', 'api/devices/count/', 'api/devices/hubs/'])
      expect((await api.client().get(call)).status).toBe(401);
  });

  test('a server started with specOnly answers 404 for the three calls', async () => {
    const server = await api.start({ specOnly: true });
    try {
      const client = await signIn(server.url, 'exec1');
      for (const call of ['api/devices/', 'api/devices/count/', 'api/devices/hubs/'])
        expect((await client.get(call)).status).toBe(404);
      expect((await client.get('api/get_status/')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('writes keep the order, the counts and the hubs', () => {
  const HEADER =
    'tracking_id,hub_code,device_type,device_brand,device_model_name,is_blindpick,blind_brand,blind_model,created_date';

  async function expectAllConsistent() {
    records = await everyRecord();
    expect((await allPages({}, 500)).records.map((r) => r.id)).toEqual(expectedIds({}));
    for (const status of STATUS_VALUES) expect(await count({ status })).toBe(expectedIds({ status }).length);
    expect(await count({ result: 'E005' })).toBe(expectedIds({ result: 'E005' }).length);
    expect(await count({ hub: 'hub1' })).toBe(expectedIds({ hub: 'hub1' }).length);
    expect((await api.as.executive!.get('api/devices/hubs/')).body.hubs).toEqual(
      distinctHubCodes([...records].sort((a, b) => a.id - b.id)),
    );
  }

  test('an upload, a submission, a hub verification and an RC verification each move the record where the rules put it', async () => {
    const csv = `${HEADER}\nFLOW-1,hub1,mobile,Samsung,Galaxy S23,false,,,2020-01-01\nFLOW-2,HUB1,mobile,Samsung,Galaxy S23,false,,,\n`;
    const answers = await uploadCsv(api.as.admin!, 'flow.csv', csv);
    expect(answers.at(-1)!.body).toMatchObject({ processed: 2 });
    await expectAllConsistent();
    // After the latest time a Date holds comes the newest record.
    const newest = async () => (await api.as.executive!.get('api/devices/?limit=2')).body.records[1] as DeviceRecord;
    // Uploaded without a created date: the time of upload, so the newest.
    expect((await newest()).tracking_id.tracking_id).toBe('FLOW-2');
    expect((await allPages({ q: 'flow-1' })).records.map((r) => r.tracking_id.tracking_id)).toEqual(['FLOW-1']);

    const userId = async (username: string) =>
      (await api.db.kysely.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow())
        .id;
    const operator = (await fieldUserOf(api.db, await userId('op1')))!;
    const executive = (await fieldUserOf(api.db, await userId('exec1')))!;
    const rc = (await fieldUserOf(api.db, await userId('rc1')))!;
    const scan = {
      tracking_id: 'FLOW-1',
      mac_address: '0A:11:22:33:44:55',
      model: 'Galaxy S23',
      hardware_id: 'HW-FLOW',
    };

    // Submitted in the future: the newest record, its result shown.
    await submitDevice(api.db, operator, scan, new Date('2031-01-01T00:00:00Z'));
    await expectAllConsistent();
    const first = await newest();
    expect([first.tracking_id.tracking_id, first.submit_time, first.device_result]).toEqual([
      'FLOW-1',
      '2031-01-01T00:00:00.000Z',
      'E005',
    ]);
    expect(
      (await allPages({ status: 'submitted', result: 'E005', q: 'flow' })).records.map(
        (r) => r.tracking_id.tracking_id,
      ),
    ).toEqual(['FLOW-1']);

    // Submitted again by the same operator, later, with another MAC.
    await submitDevice(
      api.db,
      operator,
      { ...scan, mac_address: '0A:11:22:33:44:56' },
      new Date('2031-02-01T00:00:00Z'),
    );
    await expectAllConsistent();

    // Verified at the hub: ordered by its verify time, now before the submission.
    await verifyAtHub(
      api.db,
      executive,
      { tracking_id: 'FLOW-1', hardware_id: 'HW-FLOW' },
      new Date('2030-06-01T00:00:00Z'),
    );
    await expectAllConsistent();
    expect((await allPages({ status: 'verified', q: 'FLOW' })).records.map((r) => r.tracking_id.tracking_id)).toEqual([
      'FLOW-1',
    ]);

    // Detached: same time, another status.
    await verifyAtRc(api.db, rc, { tracking_id: 'FLOW-1', hardware_id: 'HW-FLOW' }, new Date('2032-01-01T00:00:00Z'));
    await expectAllConsistent();
    expect((await allPages({ status: 'detached', q: 'flow-1' })).records.map((r) => r.verify_time)).toEqual([
      '2030-06-01T00:00:00.000Z',
    ]);
  });

  test('concurrent submissions and verifications keep the counts exact', async () => {
    const ids = Array.from({ length: 24 }, (_, n) => `CONC-${n}`);
    const rows = ids.map((id) => `${id},HUB1,mobile,Samsung,Galaxy S23,false,,,2024-05-05`).join('\n');
    expect((await uploadCsv(api.as.admin!, 'concurrent.csv', `${HEADER}\n${rows}\n`)).at(-1)!.body).toMatchObject({
      processed: ids.length,
    });
    const userId = async (username: string) =>
      (await api.db.kysely.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow())
        .id;
    const operator = (await fieldUserOf(api.db, await userId('op1')))!;
    const executive = (await fieldUserOf(api.db, await userId('exec1')))!;
    const mac = (n: number) =>
      `0A:22:33:44:${String(Math.floor(n / 100)).padStart(2, '0')}:${String(n % 100).padStart(2, '0')}`;
    await Promise.all(
      ids.map((tracking_id, n) =>
        submitDevice(api.db, operator, {
          tracking_id,
          mac_address: mac(n),
          model: 'Galaxy S23',
          hardware_id: `HW-${n}`,
        }),
      ),
    );
    await Promise.all(
      ids
        .filter((_, n) => n % 2 === 0)
        .map((tracking_id, n) => verifyAtHub(api.db, executive, { tracking_id, hardware_id: `HW-${n * 2}` })),
    );
    await expectAllConsistent();
  });

  test('an upload of a new hub adds it to the hub choices', async () => {
    expect(
      (await api.superAdmin.post('user/create_group/', { name: 'HUB9', code: 'HUB9', organization: 'hub' })).status,
    ).toBe(201);
    const answers = await uploadCsv(
      api.as.admin!,
      'new-hub.csv',
      `${HEADER}\nNEW-HUB-1,hub9,mobile,Samsung,Galaxy S23,false,,,\n`,
    );
    expect(answers.at(-1)!.body).toMatchObject({ processed: 1 });
    await expectAllConsistent();
    expect((await api.as.executive!.get('api/devices/hubs/')).body.hubs).toContain('HUB9');
  });
});

describe('the summaries', () => {
  test('after every write above, equal a count of the records by hub, status and result', async () => {
    const summaries = await api.db.kysely
      .selectFrom('device_counts')
      .select(['hub_key', 'status_key', 'result_key', 'total'])
      .where('total', '<>', 0)
      .orderBy('hub_key')
      .orderBy('status_key')
      .orderBy('result_key')
      .execute();
    const { rows } = await sql<{ hub_key: string; status_key: string; result_key: string; total: number | string }>`
      select coalesce(hub_key, '') as hub_key, status_key, coalesce(result_key, '') as result_key, count(*) as total
      from device_records group by 1, 2, 3 order by 1, 2, 3`.execute(api.db.kysely);
    const plain = (list: { hub_key: string; status_key: string; result_key: string; total: number | string }[]) =>
      list.map((r) => ({ ...r, total: Number(r.total) }));
    expect(plain(summaries)).toEqual(plain(rows));
  });
});

/** A pick-list filter with a search, and any other filters of `more`. */
const searchFilter = (needle: string, more: Partial<DeviceFilter> = {}): DeviceFilter => ({
  needle,
  hubKey: null,
  status: null,
  result: null,
  ...more,
});

describe('search routes (in-process, with small thresholds)', () => {
  async function pages(f: DeviceFilter, limit: number, tuning: SearchTuning): Promise<number[]> {
    const ids: number[] = [];
    let after = null;
    for (let n = 0; n < 1000; n++) {
      const page = await devicePage(api.db, f, after, limit, tuning);
      ids.push(...page.records.map((json) => (JSON.parse(json) as DeviceRecord).id));
      if (page.next === null) return ids;
      after = page.next;
    }
    throw new Error('too many pages');
  }

  test('walk, bounded walk then candidates, and candidates alone all give the order of the oracle', async () => {
    records = await everyRecord();
    const tunings: SearchTuning[] = [
      // Every search of 3 characters or more is "common": bounded walks of 4 records, then candidates.
      { minCandidates: 1, maxCandidates: 1, walkFactor: 4, countShare: 0 },
      // A walk long enough for most pages.
      { minCandidates: 2, maxCandidates: 2, walkFactor: 200, countShare: 0 },
      // Every search is "rare": candidates only.
      { minCandidates: 100_000, maxCandidates: 100_000, walkFactor: 1, countShare: 1 },
    ];
    const searches: [string, Partial<DeviceFilter>][] = [
      ['310', {}],
      ['0001', {}],
      ['00', {}],
      ['fmpp', { hubKey: 'hub2' }],
      ['3100000', { status: 'pending' }],
      ['flow', {}],
      ['r_s', {}],
      // One or two characters: PostgreSQL reads them from the tracking-ID index when rare.
      ['zz', {}],
      ['r_', {}],
      ['x', { status: 'pending' }],
      ['q', {}],
    ];
    for (const tuning of tunings) {
      for (const [needle, more] of searches) {
        const query: Query = {
          q: needle,
          hub: more.hubKey ?? '',
          status: more.status ?? '',
          result: more.result ?? '',
        };
        for (const limit of [3, 25]) {
          expect({ tuning, needle, limit, ids: await pages(searchFilter(needle, more), limit, tuning) }).toEqual({
            tuning,
            needle,
            limit,
            ids: expectedIds(query),
          });
        }
        expect(await deviceCount(api.db, searchFilter(needle, more), tuning)).toBe(expectedIds(query).length);
      }
    }
  });
});

describe('a search of one or two characters', () => {
  test('matches tracking IDs in any case, reads LIKE wildcards as text, and finds nothing where no ID holds it', async () => {
    records = await everyRecord();
    const searches: [string, number][] = [
      ['zz', 1],
      ['Zz', 1],
      ['r_', 1],
      ['%c', 1],
      ['xs', 1],
      ['q', 0],
      ['qj', 0],
    ];
    for (const [q, found] of searches) {
      const ids = (await allPages({ q }, 5)).records.map((r) => r.id);
      expect({ q, ids }).toEqual({ q, ids: expectedIds({ q }) });
      expect({ q, found: ids.length, count: await count({ q }) }).toEqual({ q, found, count: found });
    }
  });
});

describe('the search table', () => {
  const HEADER =
    'tracking_id,hub_code,device_type,device_brand,device_model_name,is_blindpick,blind_brand,blind_model,created_date';
  const mark = async () =>
    Number(
      (await api.db.kysely.selectFrom('device_search_state').select('indexed_through').executeTakeFirstOrThrow())
        .indexed_through,
    );
  const lastId = async () =>
    Number((await sql<{ n: number }>`select max(id) as n from device_records`.execute(api.db.kysely)).rows[0]!.n);

  test('records stored after the last indexing are found before they are indexed, and indexing catches up', async () => {
    // Stored by the upload's own code, without the indexing that follows an upload.
    const stored = await storeShipment(api.db, 'tail-upload', ['TAIL-ONE', 'tail-two']);
    expect(stored).toEqual([true, true]);
    expect(await mark()).toBeLessThan(await lastId());
    records = await everyRecord();
    for (const q of ['tail-', 'AIL-T', 'ta']) {
      expect((await allPages({ q }, 10)).records.map((r) => r.tracking_id.tracking_id)).toEqual(
        expectedIds({ q }).map((id) => records.find((r) => r.id === id)!.tracking_id.tracking_id),
      );
      expect(await count({ q })).toBe(expectedIds({ q }).length);
    }

    await catchUpSearchIndex(api.db);
    expect(await mark()).toBe(await lastId());
    if (ENGINE === 'sqlite')
      await sql`insert into device_search (device_search) values ('integrity-check')`.execute(api.db.kysely);
    expect((await allPages({ q: 'tail-t' }, 10)).records.map((r) => r.tracking_id.tracking_id)).toEqual(['tail-two']);
    expect(await count({ q: 'ail-tw' })).toBe(1);
  });

  test('an upload is indexed after it is stored', async () => {
    const answers = await uploadCsv(
      api.as.admin!,
      'indexed.csv',
      `${HEADER}\nINDEXED-1,HUB1,mobile,Samsung,Galaxy S23,false,,,\n`,
    );
    expect(answers.at(-1)!.body).toMatchObject({ processed: 1 });
    await eventually(async () => (await mark()) === (await lastId()));
  });

  test('indexing waits while an upload stores its rows, and catches up once it ends', async () => {
    const resume = pauseSearchIndexing(api.db);
    expect(await storeShipment(api.db, 'while-ingesting', ['WHILE-INGESTING'])).toEqual([true]);
    let indexed = false;
    const indexing = catchUpSearchIndex(api.db).then(() => (indexed = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // (The test server's own indexer, on a connection of its own, is not this one.)
    expect(indexed).toBe(false);
    resume();
    await indexing;
    expect(await mark()).toBe(await lastId());
  });

  onPostgres(
    'the index never passes a record whose insert is still under way, and takes it once committed',
    async () => {
      await catchUpSearchIndex(api.db);
      // A batch of the upload's that took its ids and has not committed (its transaction held open).
      let commit!: () => void;
      const committed = new Promise<void>((resolve) => (commit = resolve));
      let started!: () => void;
      const holding = new Promise<void>((resolve) => (started = resolve));
      const open = api.db.transaction(async (trx) => {
        await holdRecordInserts(trx, api.db);
        await sql`insert into device_records (tracking_id, sort_ms, status_key) values ('OPEN-INSERT', 0, 'pending')`.execute(
          trx,
        );
        started();
        await committed;
      });
      await holding;
      // Stored after it, with a higher id, and committed first.
      expect(await storeShipment(api.db, 'after-open', ['AFTER-OPEN'])).toEqual([true]);
      const indexing = catchUpSearchIndex(api.db);
      // The indexer waits for the open insert rather than mark past it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await mark()).toBeLessThan(await lastId());
      commit();
      await open;
      await indexing;
      expect(await mark()).toBe(await lastId());
      const indexed = await sql<{ tracking_key: string }>`
      select tracking_key from device_search where tracking_key in ('open-insert', 'after-open') order by tracking_key`.execute(
        api.db.kysely,
      );
      expect(indexed.rows.map((row) => row.tracking_key)).toEqual(['after-open', 'open-insert']);
      // Stored past the upload's summaries: gone again, for the counts of the tests after this one.
      await sql`delete from device_search where tracking_key = 'open-insert'`.execute(api.db.kysely);
      await sql`delete from device_records where tracking_id = 'OPEN-INSERT'`.execute(api.db.kysely);
    },
  );
});

describe('migration 006', () => {
  test('fills in the derived columns, the summaries and the search of the records stored before it', async () => {
    const older = await freshDatabase();
    const db = openDatabase(older.options);
    try {
      const migrator = new Migrator({
        db: db.kysely,
        provider: { getMigrations: async () => migrationsFor(db.engine) },
      });
      expect((await migrator.migrateTo('005_login_throttle')).error).toBeUndefined();
      const flags = { is_blindpick: 0, is_submit: 0, is_verified: 0, is_verified_rc: 0, is_verified_rc_by: 0 };
      const raw = EDGE_RECORDS.map((r) => ({
        ...flags,
        tracking_id: r.tracking_id.tracking_id,
        ...factsOf(r),
        is_verified_rc: r.is_verified_rc ? 1 : 0,
      }));
      // 2,500 more, so the backfill takes more than one batch.
      const edges = raw.length;
      for (let i = 0; i < 2500; i++) raw.push({ ...raw[i % edges]!, tracking_id: `OLD-${i}` });
      for (let start = 0; start < raw.length; start += 500) {
        await (db.kysely as any)
          .insertInto('device_records')
          .values(raw.slice(start, start + 500))
          .execute();
      }
      await migrateToLatest(db);

      const stored = await db.kysely.selectFrom('device_records').selectAll().orderBy('id').execute();
      expect(stored).toHaveLength(raw.length);
      for (const row of stored) {
        // Compared as text: PostgreSQL answers bigint columns as text.
        const asText = (columns: object) =>
          Object.fromEntries(
            Object.entries(columns).map(([column, value]) => [column, value === null ? null : String(value)]),
          );
        const derived = derivedColumns(row);
        expect(asText(derived)).toEqual(
          asText(Object.fromEntries(Object.keys(derived).map((column) => [column, row[column as keyof typeof row]]))),
        );
      }
      const everyFilter: DeviceFilter = { needle: '', hubKey: null, status: null, result: null };
      expect(await deviceCount(db, everyFilter)).toBe(raw.length);
      expect(await deviceCount(db, { ...everyFilter, hubKey: 'hub1' })).toBe(
        stored.filter((r) => r.hub_key === 'hub1').length,
      );
      expect(await deviceCount(db, { ...everyFilter, status: 'submitted' })).toBe(
        stored.filter((r) => r.status_key === 'submitted').length,
      );
      const hubs = await db.kysely
        .selectFrom('device_hubs')
        .select(['hub_key', 'hub_code'])
        .orderBy('hub_key')
        .execute();
      expect(hubs).toEqual([
        { hub_key: 'all', hub_code: 'all' },
        { hub_key: 'hub01', hub_code: 'HUB01' },
        { hub_key: 'hub1', hub_code: 'HUB1' },
        { hub_key: 'hub3', hub_code: 'hub3' },
      ]);
      const search = await devicePage(db, { ...everyFilter, needle: 'mixed_case' }, null, 10);
      expect(search.records.map((json) => (JSON.parse(json) as DeviceRecord).tracking_id.tracking_id)).toEqual([
        'Mixed_Case-Zz9',
      ]);
    } finally {
      await db.kysely.destroy();
      await older.drop();
    }
  });
});

describe('a search over many records', () => {
  const trackingIds = (page: { records: string[] }) =>
    page.records.map((json) => (JSON.parse(json) as DeviceRecord).tracking_id.tracking_id);

  test('the count of a search stops past 10,000 matches and says there are more; without a search it is exact', async () => {
    const many = await freshDatabase();
    const db = openDatabase(many.options);
    try {
      await migrateToLatest(db);
      const volume: VolumeOptions = {
        rand: seededRandom(11),
        now: Date.parse('2025-06-15T00:00:00Z'),
        count: 10_050,
        hubs: VOLUME_HUBS,
        devices: CATALOGUE,
      };
      // FMPP3100000000 to FMPP3100010049: 'FMPP310000' would hold exactly 10,000.
      await bulkLoad(
        db,
        Array.from({ length: volume.count }, (_, i) => storedRow(volumeRecord(i, volume), new Map())),
      );
      await catchUpSearchIndex(db);
      const countOf = (q: string) => countDevices(db, { q });
      await expect(countOf('')).resolves.toEqual({ total: 10_050 });
      for (const q of ['f', 'mp', 'fmpp', 'FMPP31000'])
        await expect(countOf(q)).resolves.toEqual({ total: 10_000, more: true });
      await expect(countOf('fmpp31000100')).resolves.toEqual({ total: 50 });
      await expect(countOf('FMPP3100010049')).resolves.toEqual({ total: 1 });
      await expect(countOf('0010049')).resolves.toEqual({ total: 1 });
    } finally {
      await db.kysely.destroy();
      await many.drop();
    }
  });

  test("a search's rarest fragment finds more records than the search; only the search's matches are answered", async () => {
    // Twelve characters: the index is asked for at most six of them, which more records hold.
    const needle = 'fmpp31000000';
    const expected = expectedIds({ q: needle });
    expect(expected.length).toBeGreaterThan(0);
    if (ENGINE === 'postgres') {
      // The sample is taken beside the searches: wait for it, so that the fragment is what is asked.
      await eventually(() => estimateSearch(api.db, needle) !== null);
      expect(estimateSearch(api.db, needle)!.fragment.length).toBeLessThan(needle.length);
    }
    const ids = trackingIds(await devicePage(api.db, searchFilter(needle), null, 500));
    expect(ids.every((id) => id.toLowerCase().includes(needle))).toBe(true);
    expect(ids.length).toBe(expected.length);
    expect(await deviceCount(api.db, searchFilter(needle))).toBe(expected.length);
  });
});
