// The sample of tracking IDs behind the search's route (src/devices/id-sample.ts): shares counted
// among the holders of a fragment's rarest trigram are the shares over every sampled ID.
import { estimateFromSample, sampleOfIds } from '../src/devices/id-sample';

// Tracking IDs as shipments make them: a short prefix, then sequential digits, in runs.
const IDS = Array.from({ length: 3000 }, (_, i) => {
  const prefix = ['fmpp', 'shp', 'rtn-'][i % 3]!;
  return `${prefix}${String(3_100_000_000 + ((i * 7919) % 1_000_003)).padStart(10, '0')}`;
});
const sample = sampleOfIds(IDS);
const shareOf = (text: string) => IDS.filter((id) => id.includes(text)).length / IDS.length;

test("a search's share of the sample, and its chosen fragment's, equal a count over every sampled ID", () => {
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
    const seen = shareOf(estimate.fragment);
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
