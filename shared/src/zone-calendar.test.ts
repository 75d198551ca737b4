import { localDays } from './dashboard-stats';
import { seededRandom } from './testing/records';
import { inLocalZone, TEST_ZONES } from './testing/time-zone';
import { isTimeZone, zoneDays } from './zone-calendar';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The instants within `year` where `zone` changes its offset, to the minute (found day by day, then bisected). */
function transitions(zone: string, year: number): number[] {
  const format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
  const offset = (t: number) => format.formatToParts(t).find((p) => p.type === 'timeZoneName')!.value;
  const found: number[] = [];
  const end = Date.UTC(year + 1, 0, 1);
  let previous = offset(Date.UTC(year, 0, 1));
  for (let t = Date.UTC(year, 0, 1) + DAY; t <= end; t += DAY) {
    const current = offset(t);
    if (current === previous) continue;
    let [lo, hi] = [t - DAY, t];
    while (hi - lo > 60_000) {
      const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
      if (offset(mid) === previous) lo = mid;
      else hi = mid;
    }
    found.push(hi);
    previous = current;
  }
  return found;
}

test('isTimeZone accepts the zones Intl knows, in any case, and nothing else', () => {
  for (const zone of ['Asia/Kolkata', 'asia/kathmandu', 'UTC', 'America/St_Johns', 'Etc/GMT+5'])
    expect([zone, isTimeZone(zone)]).toEqual([zone, true]);
  for (const zone of ['', 'Mars/Olympus', '+05:30', 'Z', 'local', 'Asia/Kolkata '])
    expect([zone, isTimeZone(zone)]).toEqual([zone, false]);
});

test('the days of a named zone equal the local days of a runtime in that zone, around every change of offset', () => {
  const rand = seededRandom(7);
  const mismatches: unknown[] = [];
  let changes = 0;
  for (const zone of TEST_ZONES) {
    // Random instants from 1980 to 2040, and instants around the zone's changes in two random years.
    const nows: number[] = [];
    for (let i = 0; i < 4; i++) nows.push(Date.UTC(1980, 0, 1) + Math.floor(rand.next() * 60 * 365.25 * DAY));
    for (const year of [1980 + Math.floor(rand.next() * 45), 2025 + Math.floor(rand.next() * 15)]) {
      for (const change of transitions(zone, year)) {
        changes++;
        for (const delta of [-25 * HOUR, -HOUR, -1, 0, HOUR, 13 * HOUR, 3 * DAY]) nows.push(change + delta);
      }
    }
    const expected = inLocalZone(zone, () => nows.map((now) => [1, 30].map((days) => localDays(days, new Date(now)))));
    nows.forEach((now, i) => {
      [1, 30].forEach((days, j) => {
        const actual = zoneDays(days, new Date(now), zone);
        if (JSON.stringify(actual) !== JSON.stringify(expected[i]![j]))
          mismatches.push({ zone, now: new Date(now).toISOString(), days, actual, expected: expected[i]![j] });
      });
    });
  }
  expect(mismatches.slice(0, 3)).toEqual([]);
  expect(changes).toBeGreaterThan(200);
});

test.each([
  // 1 day of 23 hours: the clocks skip 01:00–02:00 on 30 March 2025.
  ['Europe/London', '2025-03-30T12:00:00Z', ['2025-03-30T00:00:00.000Z', '2025-03-30T23:00:00.000Z']],
  // Midnight itself is skipped: the day starts at 01:00 (the offset before the change, ECMAScript's rule).
  ['America/Santiago', '2024-09-08T15:00:00Z', ['2024-09-08T04:00:00.000Z', '2024-09-09T03:00:00.000Z']],
  // Samoa skipped 30 December 2011 whole: that day has no instants, and 31 December starts where it would have.
  [
    'Pacific/Apia',
    '2011-12-31T00:00:00Z',
    ['2011-12-30T10:00:00.000Z', '2011-12-30T10:00:00.000Z', '2011-12-31T10:00:00.000Z'],
  ],
  ['Asia/Kathmandu', '2025-06-01T00:00:00Z', ['2025-05-31T18:15:00.000Z', '2025-06-01T18:15:00.000Z']],
] as const)('%s on %s', (zone, now, starts) => {
  const days = zoneDays(starts.length - 1, new Date(now), zone);
  expect(days.starts.map((t) => new Date(t).toISOString())).toEqual(starts);
  expect(days).toEqual(inLocalZone(zone, () => localDays(starts.length - 1, new Date(now))));
});

test('inLocalZone restores the zone it found', () => {
  const before = new Date(2025, 0, 1).getTime();
  inLocalZone('Asia/Kolkata', () => expect(new Date(2025, 0, 1).getTime()).toBe(Date.UTC(2024, 11, 31, 18, 30)));
  expect(new Date(2025, 0, 1).getTime()).toBe(before);
});
