// The sample of tracking IDs behind the search's route (src/devices/id-sample.ts): shares counted
// among the holders of a fragment's rarest trigram are the shares over every sampled ID.
import { seededRandom } from '@veritas/shared/testing/records';
import { estimateFromSample, sampleOfIds } from '../src/devices/id-sample.postgres';

// Tracking IDs as shipments make them: a short prefix, then sequential digits, in runs.
const IDS = Array.from({ length: 3000 }, (_, i) => {
  const prefix = ['fmpp', 'shp', 'rtn-'][i % 3]!;
  return `${prefix}${String(3_100_000_000 + ((i * 7919) % 1_000_003)).padStart(10, '0')}`;
});
const sample = sampleOfIds(IDS);
const shareOf = (text: string) => IDS.filter((id) => id.includes(text)).length / IDS.length;
const trigramsOf = (text: string) => [
  ...new Set(Array.from({ length: text.length - 2 }, (_, i) => text.slice(i, i + 3))),
];
/** The IDs the trigram index gives for a fragment: those holding each of its trigrams. */
const indexShareOf = (fragment: string) =>
  IDS.filter((id) => trigramsOf(fragment).every((trigram) => id.includes(trigram))).length / IDS.length;

test("a search's share of the sample, and its chosen fragment's in the trigram index, equal a count over every sampled ID", () => {
  const whole = IDS[1234]!;
  const needles = [
    whole,
    whole.slice(0, 8),
    whole.slice(-6),
    whole.slice(3, 9),
    'fmpp',
    'pp31',
    '-31',
    '000',
    'zzzz9',
    'f',
    '7',
    'p3',
    '-3',
    'zz',
  ];
  for (const needle of needles) {
    const estimate = estimateFromSample(sample, needle);
    expect(estimate.share).toBe(shareOf(needle));
    expect(needle).toContain(estimate.fragment);
    const seen = estimate.fragment.length < 3 ? shareOf(estimate.fragment) : indexShareOf(estimate.fragment);
    // A fragment the sample holds has its counted share; one it does not, a chained estimate below one ID's.
    if (seen > 0) expect(estimate.fragmentShare).toBe(seen);
    else expect(estimate.fragmentShare).toBeLessThanOrEqual(1 / (2 * IDS.length));
  }
});

test("a whole ID's cheapest fragment is among its digits, not in the prefix every record holds", () => {
  const whole = IDS[42]!;
  const { fragment, fragmentShare } = estimateFromSample(sample, whole);
  expect(fragment).toMatch(/^\d{3,6}$/);
  expect(fragmentShare).toBeLessThan(0.01);
});

test('a fragment repeating a trigram is costed by every record holding that trigram, which is all the index can ask', () => {
  // Samples as the server draws them from 10M records of the volume loader: 'fmpp310' and 7 digits.
  for (let seed = 1; seed <= 20; seed++) {
    const rand = seededRandom(seed);
    const ids = Array.from({ length: 5000 }, () => `fmpp310${String(Math.floor(rand.next() * 1e7)).padStart(7, '0')}`);
    const { fragment, fragmentShare } = estimateFromSample(sampleOfIds(ids), 'fmpp3109999958');
    // '99999' is asked of pg_trgm as '999' alone: about 1 record in 200, not the 1 in 36,000 holding '99999'.
    expect(fragment).not.toMatch(/^9+$/);
    expect(fragmentShare).toBeLessThan(ids.filter((id) => id.includes('999')).length / ids.length);
  }
});

test('of fragments the index answers alike, the longest is asked: its pattern keeps the fewest records', () => {
  expect(estimateFromSample(sample, '99999').fragment).toBe('99999');
  expect(estimateFromSample(sample, '0000000').fragment).toBe('000000');
});
