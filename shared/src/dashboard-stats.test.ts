import type { DeviceRecord } from './types';
import { makeRecord } from './testing/records';
import {
  DashboardTally,
  dashboardStats,
  formatPercent,
  localDays,
  parseTime,
  PIE_RESULTS,
  recordCounters,
  type Selection,
} from './dashboard-stats';

// Local times, so the day rules hold in whatever time zone the tests run.
const NOW = new Date(2025, 2, 15, 12, 0); // 15 March 2025, noon
const at = (day: number, hour = 10, minute = 0) => new Date(2025, 2, day, hour, minute).toISOString();

let nextId = 1;
type Overrides = Parameters<typeof makeRecord>[0];
/** A record created on 15 March in hub BLR01, pending unless overridden. */
function record(overrides: Overrides = {}): DeviceRecord {
  const { tracking_id, ...rest } = overrides ?? {};
  return makeRecord({
    id: nextId++,
    ...rest,
    tracking_id: { hub_code: 'BLR01', created_date: at(15), ...tracking_id },
  });
}
/** A record submitted on `day` by `username` with `result`. */
function submitted(result: string, overrides: Overrides = {}, day = 15, username = 'wm_asha'): DeviceRecord {
  return record({
    is_submit: true,
    submit_time: at(day),
    submitted_by: { username },
    device_result: result,
    ...overrides,
  });
}
/** A record submitted on `submitDay` and verified at the hub on `verifyDay`. */
function verified(result: string, submitDay: number, verifyDay: number, overrides: Overrides = {}): DeviceRecord {
  return submitted(result, { is_verified: true, verify_time: at(verifyDay), ...overrides }, submitDay);
}

const stats = (records: DeviceRecord[], selection: Partial<Selection> = {}) =>
  dashboardStats(records, { hub: 'all', timeframe: 'last30', ...selection }, NOW);

describe('timeframe filter by local calendar day of created_date', () => {
  test("'today' counts records created from local midnight today to the end of today", () => {
    const records = [
      record({ tracking_id: { created_date: new Date(2025, 2, 15, 0, 0).toISOString() } }),
      record({ tracking_id: { created_date: new Date(2025, 2, 15, 23, 59, 59).toISOString() } }),
      record({ tracking_id: { created_date: new Date(2025, 2, 14, 23, 59, 59).toISOString() } }),
      record({ tracking_id: { created_date: new Date(2025, 2, 16, 0, 0).toISOString() } }),
    ];
    expect(stats(records, { timeframe: 'today' }).pending).toBe(2);
  });

  test.each([
    ['last7', 7],
    ['last15', 15],
    ['last30', 30],
  ] as const)('%s counts today and the %i − 1 days back, not the day before', (timeframe, days) => {
    const first = 15 - (days - 1);
    const records = [
      record({ tracking_id: { created_date: new Date(2025, 2, first, 0, 0).toISOString() } }),
      record({ tracking_id: { created_date: new Date(2025, 2, first - 1, 23, 59).toISOString() } }),
    ];
    const result = stats(records, { timeframe });
    expect(result.pending).toBe(1);
    expect(result.days).toHaveLength(days);
  });

  test('missing and invalid created_date are excluded', () => {
    const records = [
      record({ tracking_id: { created_date: null } }),
      record({ tracking_id: { created_date: 'not-a-date' } }),
      record({ tracking_id: { created_date: '' } }),
      record(),
    ];
    expect(stats(records).pending).toBe(1);
  });

  test('days are labelled MM/DD, oldest first, across a month boundary', () => {
    expect(dashboardStats([], { hub: 'all', timeframe: 'last7' }, new Date(2025, 2, 3, 8)).days).toEqual([
      '02/25',
      '02/26',
      '02/27',
      '02/28',
      '03/01',
      '03/02',
      '03/03',
    ]);
  });
});

test('hub filter: all counts every hub, a hub code matches ignoring case', () => {
  const records = [
    record({ tracking_id: { hub_code: 'BLR01' } }),
    record({ tracking_id: { hub_code: 'DEL02' } }),
    record({ tracking_id: { hub_code: null } }),
  ];
  expect(stats(records, { hub: 'all' }).pending).toBe(3);
  expect(stats(records, { hub: 'blr01' }).pending).toBe(1);
  expect(stats(records, { hub: 'Del02' }).pending).toBe(1);
});

describe('tiles', () => {
  const records = [
    record(),
    record(),
    submitted('passed'),
    submitted('E004'),
    verified('passed', 15, 15),
    verified('E006', 15, 15),
  ];

  test('Verified at Doorstep counts submitted records', () => {
    expect(stats(records).verified).toBe(4);
  });

  test('Pending counts records not submitted', () => {
    expect(stats(records).pending).toBe(2);
  });

  test('Rejection % is submitted and not passed over submitted, two decimals', () => {
    expect(stats(records).rejection).toBe('50.00%');
    expect(stats([submitted('E004'), submitted('passed'), submitted('passed')]).rejection).toBe('33.33%');
  });

  test("Rejection % is '0.00%' when nothing is submitted", () => {
    expect(stats([record()]).rejection).toBe('0.00%');
    expect(stats([]).rejection).toBe('0.00%');
  });
});

describe('Rejection Trend', () => {
  test('doorstep rejections count on the submit day, hub rejections on the verify day', () => {
    const result = stats([verified('E007', 12, 14), submitted('E003', {}, 13), verified('passed', 12, 14)], {
      timeframe: 'last7',
    });
    // last7 of 15 March: 03/09 … 03/15
    expect(result.trend.doorstep).toEqual([0, 0, 0, 1, 1, 0, 0]);
    expect(result.trend.hub).toEqual([0, 0, 0, 0, 0, 1, 0]);
    expect(result.trend.total).toBe(3);
  });

  test('a verified record not passed counts at the hub even without is_submit', () => {
    const result = stats([record({ is_verified: true, verify_time: at(15), device_result: 'E008' })], {
      timeframe: 'today',
    });
    expect(result.trend).toEqual({ doorstep: [0], hub: [1], total: 1 });
  });

  test('records lacking the time or with a day outside the timeframe are skipped', () => {
    const result = stats(
      [
        submitted('E004', { submit_time: null }),
        verified('E004', 15, 15, { verify_time: 'garbage' }),
        submitted('E004', {}, 1),
      ],
      { timeframe: 'last7' },
    );
    expect(result.trend.doorstep).toEqual([0, 0, 0, 0, 0, 0, 1]);
    expect(result.trend.hub).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('Daily Processed Volume', () => {
  test('submitted and verified counts on the verify day at the hub; submitted only on the submit day at the doorstep', () => {
    const result = stats([verified('passed', 12, 14), submitted('passed', {}, 13), record()], { timeframe: 'last7' });
    expect(result.volume.hub).toEqual([0, 0, 0, 0, 0, 1, 0]);
    expect(result.volume.doorstep).toEqual([0, 0, 0, 0, 1, 0, 0]);
    expect(result.volume.total).toBe(2);
  });

  test('records lacking the needed time are skipped', () => {
    const result = stats([
      verified('passed', 12, 14, { verify_time: null }),
      submitted('passed', { submit_time: null }),
    ]);
    expect(result.volume.total).toBe(0);
  });
});

describe('Error Distribution', () => {
  test('counts only passed and E003–E010 among submitted records, in that order, without empty slices', () => {
    const records = [
      submitted('E010'),
      submitted('passed'),
      submitted('E004'),
      submitted('passed'),
      submitted('E001'),
      submitted('E002'),
      submitted('E999'),
      record({ device_result: 'passed' }),
    ];
    expect(stats(records).errors.map(({ key, count }) => [key, count])).toEqual([
      ['passed', 2],
      ['E004', 1],
      ['E010', 1],
    ]);
  });

  test("tooltips are 'Passed' and 'E00x: title'; every slice has its own colour", () => {
    const codes = ['passed', 'E003', 'E004', 'E005', 'E006', 'E007', 'E008', 'E009', 'E010'];
    const slices = stats(codes.map((code) => submitted(code))).errors;
    expect(slices.map((s) => s.tooltip).slice(0, 3)).toEqual([
      'Passed',
      'E003: TID already verified.',
      'E004: Device duplication detected.',
    ]);
    expect(slices[0]!.color).toBe('#1e8e3e');
    expect(new Set(slices.map((s) => s.color)).size).toBe(codes.length);
  });

  test('is empty without submitted records', () => {
    expect(stats([record()]).errors).toEqual([]);
  });
});

describe('Top Five Rejection Hubs', () => {
  test("groups records without hub code as 'Unknown'", () => {
    const result = stats([
      submitted('E004', { tracking_id: { hub_code: null } }),
      submitted('E004', { tracking_id: { hub_code: '' } }),
    ]);
    expect(result.topHubs).toEqual([{ name: 'Unknown', count: 2, percent: '100.00%' }]);
  });

  test("a hub's % divides its rejections by all its records in the selection", () => {
    const hub = { tracking_id: { hub_code: 'DEL02' } };
    const result = stats([submitted('E004', hub), submitted('passed', hub), record(hub), record(hub)]);
    expect(result.topHubs).toEqual([{ name: 'DEL02', count: 1, percent: '25.00%' }]);
  });

  test('sorted by count descending, ties by name, cut at five; hubs without rejections fill up', () => {
    const inHub = (hub_code: string, result: string) => submitted(result, { tracking_id: { hub_code } });
    const records = [
      inHub('B', 'E004'),
      inHub('A', 'E004'),
      inHub('C', 'E004'),
      inHub('C', 'E005'),
      inHub('D', 'passed'),
      inHub('E', 'E006'),
      inHub('F', 'E007'),
      inHub('G', 'E007'),
    ];
    expect(stats(records).topHubs.map((row) => [row.name, row.count])).toEqual([
      ['C', 2],
      ['A', 1],
      ['B', 1],
      ['E', 1],
      ['F', 1],
    ]);
    expect(stats([inHub('A', 'passed'), inHub('B', 'E004')]).topHubs.map((row) => [row.name, row.count])).toEqual([
      ['B', 1],
      ['A', 0],
    ]);
  });
});

test('names ranking equal are ordered by English collation, then by code units, whatever order the records came in', () => {
  const inHub = (hub_code: string) => submitted('E004', { tracking_id: { hub_code } });
  // 'K' (Kelvin sign) is the same letter as 'K' to a collator.
  const names = ['HUB\u212A', 'HUBK', 'hubk', 'HUBA'];
  const expected = ['HUBA', 'hubk', 'HUBK', 'HUB\u212A'];
  expect(stats(names.map(inHub)).topHubs.map((row) => row.name)).toEqual(expected);
  expect(stats(names.reverse().map(inHub)).topHubs.map((row) => row.name)).toEqual(expected);
});

describe('Top Five Rejecting Operators', () => {
  test("counts only submitted records; a missing username is 'Unknown'", () => {
    const result = stats([
      submitted('E004', { submitted_by: null }),
      record({ submitted_by: { username: 'wm_pending' }, device_result: 'E004' }),
    ]);
    expect(result.topOperators).toEqual([{ name: 'Unknown', count: 1, percent: '100.00%' }]);
  });

  test("an operator's % divides rejections by that operator's submitted count", () => {
    const result = stats([
      submitted('E004', {}, 15, 'wm_ravi'),
      submitted('passed', {}, 15, 'wm_ravi'),
      submitted('passed', {}, 15, 'wm_ravi'),
      record(),
    ]);
    expect(result.topOperators).toEqual([{ name: 'wm_ravi', count: 1, percent: '33.33%' }]);
  });

  test('sorted by count descending, ties by name, cut at five', () => {
    const by = (name: string, result: string) => submitted(result, {}, 15, name);
    const records = ['f', 'e', 'd', 'c', 'b', 'a'].map((name) => by(name, 'E004'));
    records.push(by('z', 'E004'), by('z', 'E005'));
    expect(stats(records).topOperators.map((row) => row.name)).toEqual(['z', 'a', 'b', 'c', 'd']);
  });
});

test('formatPercent has two decimals and 0.00% for an empty whole', () => {
  expect(formatPercent(1, 8)).toBe('12.50%');
  expect(formatPercent(0, 0)).toBe('0.00%');
});

test("parseTime equals Date.parse, on the API's form and on everything else", () => {
  for (const text of [
    '2025-03-15T10:20:30.456Z',
    '2025-02-30T00:00:00.000Z',
    '2025-13-01T00:00:00.000Z',
    '0025-01-01T00:00:00.000Z',
    '2025-03-15T10:20:30Z',
    '2025-03-15',
    'not-a-date-at-all-xxxxxZ',
  ]) {
    expect([text, parseTime(text)]).toEqual([text, Date.parse(text)]);
  }
});

test('one pass: each record is read once', () => {
  const reads = new Map<number, number>();
  const records = [record(), submitted('E004'), verified('passed', 14, 15)].map(
    (r) =>
      new Proxy(r, {
        get(target, key) {
          if (key === 'tracking_id') reads.set(target.id, (reads.get(target.id) ?? 0) + 1);
          return Reflect.get(target, key);
        },
      }),
  );
  stats(records);
  expect([...reads.values()]).toEqual([1, 1, 1]);
});

describe('the tally behind dashboardStats', () => {
  test('records counted together (add with a count, or the add… methods) give what they give one by one', () => {
    const records = [
      submitted('E004', {}, 14, 'wm_ravi'),
      submitted('E004', {}, 14, 'wm_ravi'),
      verified('passed', 13, 14),
      record({ tracking_id: { hub_code: null } }),
      record({ tracking_id: { hub_code: null } }),
    ];
    const days = localDays(7, NOW);
    const tally = new DashboardTally(days);
    tally.add('BLR01', true, false, 'E004', 'wm_ravi', 5, -1, 2);
    tally.add('BLR01', true, true, 'passed', 'wm_asha', 4, 5);
    tally.add(null, false, false, null, null, -1, -1, 2);
    expect(tally.finish()).toEqual(stats(records, { timeframe: 'last7' }));

    const summed = new DashboardTally(days);
    summed.submitted = 3;
    summed.pending = 2;
    summed.rejected = 2;
    summed.trend.doorstep[5] = 2;
    summed.volume.doorstep[5] = 2;
    summed.volume.hub[5] = 1;
    summed.addHub('BLR01', 3, 2);
    summed.addHub('', 2, 0);
    summed.addOperator('wm_ravi', 2, 2);
    summed.addOperator('wm_asha', 1, 0);
    summed.addResult('E004', 2);
    summed.addResult('passed', 1);
    summed.addResult('E001', 5);
    summed.addResult(null, 5);
    expect(summed.finish()).toEqual(stats(records, { timeframe: 'last7' }));
  });
});

describe('recordCounters, the counting rule', () => {
  test('what a record adds, by submitted, verified and result', () => {
    const day = (rejected: 0 | 1, volume: 0 | 1) => ({ rejected, volume });
    // [submitted, verified, result] → counters
    expect(recordCounters(false, false, null)).toEqual({
      submitted: 0,
      rejected: 0,
      slice: null,
      submitDay: null,
      verifyDay: null,
    });
    expect(recordCounters(true, false, 'passed')).toEqual({
      submitted: 1,
      rejected: 0,
      slice: 'passed',
      submitDay: day(0, 1),
      verifyDay: null,
    });
    expect(recordCounters(true, false, 'E004')).toEqual({
      submitted: 1,
      rejected: 1,
      slice: 'E004',
      submitDay: day(1, 1),
      verifyDay: null,
    });
    expect(recordCounters(true, true, 'passed')).toEqual({
      submitted: 1,
      rejected: 0,
      slice: 'passed',
      submitDay: null,
      verifyDay: day(0, 1),
    });
    expect(recordCounters(true, true, 'E001')).toEqual({
      submitted: 1,
      rejected: 1,
      slice: null,
      submitDay: day(1, 0),
      verifyDay: day(1, 1),
    });
    // Verified at the hub without a doorstep submission: a hub rejection only.
    expect(recordCounters(false, true, 'E009')).toEqual({
      submitted: 0,
      rejected: 0,
      slice: null,
      submitDay: null,
      verifyDay: day(1, 0),
    });
    expect(recordCounters(false, true, 'passed').verifyDay).toBeNull();
  });

  test('a result the pie leaves out counts as a missing one', () => {
    for (const [isSubmit, isVerified] of [
      [false, false],
      [false, true],
      [true, false],
      [true, true],
    ] as const) {
      for (const result of ['E001', 'E002', 'E999', '', 'Passed']) {
        expect(recordCounters(isSubmit, isVerified, result)).toEqual(recordCounters(isSubmit, isVerified, null));
      }
    }
  });
});

test("each of the pie's colours stands 3:1 or more against the white between its slices (WCAG 1.4.11)", () => {
  // WCAG 2's relative luminance and contrast ratio.
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((at) => {
      const c = parseInt(hex.slice(at, at + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const { errors } = stats(PIE_RESULTS.map((result) => submitted(result)));
  expect(errors.map((slice) => slice.key)).toEqual(PIE_RESULTS);
  for (const { key, color } of errors) {
    expect([key, 1.05 / (luminance(color) + 0.05) >= 3]).toEqual([key, true]);
  }
});
