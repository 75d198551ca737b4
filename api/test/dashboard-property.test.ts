// api/dashboard/ equals the console's dashboardStats() for any records, hub, timeframe, time zone
// and day (docs/dashboard.md#server-side-figures), checked with random cases (fast-check): records
// of every state, stored in bulk (summaries rebuilt), then shipments uploaded and worked through
// the field scans (summaries kept in step); the server's answer for a random selection is
// compared with dashboardStats() over api/get_status/'s records, run in the zone asked for.
import fc from 'fast-check';
import {
  TIMEFRAMES,
  timeframeDays,
  zoneDays,
  type DeviceRecord,
  type Selection,
  type Timeframe,
} from '@veritas/shared/domain';
import { makeRecord } from '@veritas/shared/testing/records';
import { TEST_ZONES } from '@veritas/shared/testing/time-zone';
import { rebuildDashboardSummaries } from '../src/dashboard/dashboard-summaries';
import {
  fieldUserOf,
  ScanRefusal,
  submitDevice,
  verifyAtHub,
  verifyAtRc,
  type FieldUser,
} from '../src/scan/field-scans';
import { build, uploadCsv } from './support/build';
import { bothFigures, emptyRecords, insertRecords } from './support/dashboard';

const RUNS = Number(process.env.DASHBOARD_PROPERTY_RUNS ?? 100);

let now = new Date();
const api = build({
  groups: [
    { code: 'BLR01', organization: 'hub' },
    { code: 'DEL02', organization: 'hub' },
    { code: 'RC1', organization: 'RC' },
  ],
  users: [
    { username: 'op1', role: 'operators', group: 'BLR01' },
    { username: 'op3', role: 'operators', group: 'BLR01' },
    { username: 'op2', role: 'operators', group: 'DEL02' },
    { username: 'exec1', role: 'executive', group: 'BLR01' },
    { username: 'exec2', role: 'executive', group: 'DEL02' },
    { username: 'rc1', role: 'executive', group: 'RC1' },
    { username: 'admin1', role: 'admin' },
  ],
  signIn: { admin: 'admin1' },
  server: { clock: () => now },
});

/** Zones of half- and quarter-hour offsets, of DST changes at midnight or by 30 minutes, and the usual ones. */
const NOTABLE_ZONES = [
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Australia/Lord_Howe',
  'Australia/Adelaide',
  'Australia/Eucla',
  'Pacific/Chatham',
  'Asia/Tehran',
  'Pacific/Marquesas',
  'America/Santiago',
  'America/Havana',
  'Europe/London',
  'America/New_York',
  'UTC',
];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Hub codes as records hold them: case variants, none, unknown ones, a Kelvin sign that lower-cases to k. */
const RECORD_HUBS = ['BLR01', 'blr01', 'Blr01', 'DEL02', ' BLR01', '', null, 'ZZZ', 'HUBK', 'HUB\u212A'];
const SELECTED_HUBS = [
  'all',
  'all',
  'all',
  'BLR01',
  'blr01',
  'blr01',
  'del02',
  'hubk',
  'HUB\u212A',
  'zzz',
  'ALL',
  'nothing',
  ' blr01',
];
const RESULTS = [
  'passed',
  'passed',
  'E003',
  'E004',
  'E005',
  'E006',
  'E007',
  'E008',
  'E009',
  'E010',
  'E001',
  'E002',
  'E999',
  '',
  null,
];
const USERS = ['op1', 'op2', 'op3', 'exec1', null];

const BOUNDARY_DELTAS = [
  -2 * HOUR,
  -HOUR - 1,
  -HOUR,
  -45 * MINUTE,
  -30 * MINUTE,
  -15 * MINUTE,
  -1,
  0,
  1,
  15 * MINUTE,
  30 * MINUTE,
  HOUR - 1,
  HOUR,
  HOUR + 1,
  2 * HOUR,
];

/** An instant about the timeframe's days, often on or next to a day's start (in the zone) or an hour. */
const instant = (starts: number[]) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: starts[0]! - DAY, max: starts[starts.length - 1]! + DAY / 2 }) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          // The timeframe's ends most often: the whole hours and the rest next to them are counted apart.
          fc.oneof(fc.constantFrom(starts[0]!, starts[starts.length - 1]!), fc.constantFrom(...starts)),
          fc.constantFrom(...BOUNDARY_DELTAS),
        )
        .map(([start, delta]) => start + delta),
    },
  );

/**
 * A stored time: ISO 8601 UTC as the server writes it, or one that means the same instant in any
 * zone (a date alone is UTC, an explicit offset), or missing, or not a date. (A date-time without
 * an offset is local time to Date.parse, so it would be read differently in each zone: no writer
 * stores one.)
 */
const storedTime = (starts: number[]) =>
  fc.oneof(
    { weight: 8, arbitrary: instant(starts).map((ms) => new Date(ms).toISOString()) },
    { weight: 1, arbitrary: instant(starts).map((ms) => new Date(ms).toISOString().slice(0, 10)) },
    {
      weight: 1,
      arbitrary: instant(starts).map((ms) => new Date(ms + 5.5 * HOUR).toISOString().slice(0, 19) + '+05:30'),
    },
    { weight: 1, arbitrary: instant(starts).map((ms) => new Date(ms).toISOString().slice(0, 19) + 'Z') },
    { weight: 2, arbitrary: fc.constantFrom(null, '', 'not-a-date', '2025-02-30T00:00:00.000Z') },
  );

const bulkRecord = (starts: number[]) =>
  fc
    .record({
      hub: fc.constantFrom(...RECORD_HUBS),
      created: storedTime(starts),
      isSubmit: fc.boolean(),
      isVerified: fc.boolean(),
      result: fc.constantFrom(...RESULTS),
      submitter: fc.constantFrom(...USERS),
      submit: storedTime(starts),
      verify: storedTime(starts),
    })
    .map((r): DeviceRecord =>
      makeRecord({
        tracking_id: { tracking_id: 'set-later', hub_code: r.hub, created_date: r.created },
        is_submit: r.isSubmit,
        is_verified: r.isVerified,
        device_result: r.result,
        submitted_by: r.submitter === null ? null : { username: r.submitter },
        submit_time: r.submit,
        verify_time: r.verify,
      }),
    );

/** What happens to an uploaded item through the field scans, at instants about the days. */
const fieldItem = (starts: number[]) =>
  fc.record({
    hub: fc.constantFrom('BLR01', 'DEL02'),
    created: instant(starts),
    steps: fc.array(
      fc.record({
        step: fc.constantFrom('submit', 'resubmit', 'colleague', 'verify', 'verify_rc'),
        at: instant(starts),
        model: fc.constantFrom('Galaxy S24', 'Galaxy S99'),
      }),
      { maxLength: 4 },
    ),
  });

const scenario = fc
  .record({
    zone: fc.oneof(fc.constantFrom(...NOTABLE_ZONES), fc.constantFrom(...TEST_ZONES)),
    now: fc.integer({ min: Date.UTC(1980, 0, 1), max: Date.UTC(2040, 0, 1) }),
    timeframe: fc.constantFrom(...TIMEFRAMES.map((t) => t.value)) as fc.Arbitrary<Timeframe>,
    hub: fc.constantFrom(...SELECTED_HUBS),
  })
  .chain((base) => {
    const starts = zoneDays(timeframeDays(base.timeframe), new Date(base.now), base.zone).starts;
    return fc.record({
      base: fc.constant(base),
      bulk: fc.array(bulkRecord(starts), { maxLength: 25 }),
      field: fc.array(fieldItem(starts), { maxLength: 4 }),
    });
  });

let run = 0;
let macs = 0;
const nextMac = () =>
  (++macs)
    .toString(16)
    .toUpperCase()
    .padStart(12, '0')
    .replace(/(..)(?!$)/g, '$1:');

async function fieldUser(username: string): Promise<FieldUser> {
  const { id } = await api.db.kysely
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return (await fieldUserOf(api.db, id))!;
}

/** A step refused by the engine stores nothing; that is part of what is tested. */
async function attempt(step: Promise<unknown>): Promise<void> {
  try {
    await step;
  } catch (error) {
    if (!(error instanceof ScanRefusal)) throw error;
  }
}

test('api/dashboard/ equals dashboardStats() in the zone asked for, for random records, hubs, timeframes, zones and days', async () => {
  const users = {
    op1: await fieldUser('op1'),
    op2: await fieldUser('op2'),
    op3: await fieldUser('op3'),
    exec1: await fieldUser('exec1'),
    exec2: await fieldUser('exec2'),
    rc1: await fieldUser('rc1'),
  };
  await fc.assert(
    fc.asyncProperty(scenario, async ({ base, bulk, field }) => {
      run++;
      now = new Date(base.now);
      await emptyRecords(api.db);
      // In bulk, then the summaries rebuilt from the records.
      bulk.forEach((record, i) => (record.tracking_id.tracking_id = `R${run}-B${i}`));
      await insertRecords(api.db, bulk);
      await rebuildDashboardSummaries(api.db);

      // Then through the write paths, which keep the summaries in step.
      if (field.length > 0) {
        const csv = ['tracking_id,hub_code,device_type,device_brand,device_model_name,created_date'];
        field.forEach((item, i) =>
          csv.push(`R${run}-F${i},${item.hub},mobile,Samsung,Galaxy S24,${new Date(item.created).toISOString()}`),
        );
        const [answer] = await uploadCsv(api.as.admin!, 'shipment.csv', csv.join('\n'));
        expect(answer!.body.processed).toBe(field.length);
      }
      for (const [i, item] of field.entries()) {
        const trackingId = `R${run}-F${i}`;
        const [operator, colleague, verifier] =
          item.hub === 'BLR01' ? [users.op1, users.op3, users.exec1] : [users.op2, users.op1, users.exec2];
        let hardware = `HW-${trackingId}`;
        for (const { step, at, model } of item.steps) {
          const scan = { tracking_id: trackingId, mac_address: nextMac(), model, hardware_id: hardware };
          if (step === 'submit' || step === 'resubmit') {
            // A resubmission captures another unit (another hardware ID).
            if (step === 'resubmit') scan.hardware_id = hardware = `${hardware}-2`;
            await attempt(submitDevice(api.db, operator, scan, new Date(at)));
          } else if (step === 'colleague') await attempt(submitDevice(api.db, colleague, scan, new Date(at)));
          else if (step === 'verify')
            await attempt(
              verifyAtHub(api.db, verifier, { tracking_id: trackingId, hardware_id: hardware }, new Date(at)),
            );
          else
            await attempt(
              verifyAtRc(api.db, users.rc1, { tracking_id: trackingId, hardware_id: hardware }, new Date(at)),
            );
        }
      }

      const selection: Selection = { hub: base.hub, timeframe: base.timeframe };
      const { server, console: expected } = await bothFigures(api.as.admin!, selection, base.zone, now);
      expect(server).toEqual(expected);
    }),
    { numRuns: RUNS },
  );
});
