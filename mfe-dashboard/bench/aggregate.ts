// The dashboard's aggregation over 100,000 records (goal ≤ 50 ms): every figure for last30 on
// all hubs and on one hub, median of 20 runs after warm-up. Records are built in-process.
import type { DeviceRecord } from '@veritas/shared';
import { dashboardStats, type Selection } from '../src/dashboardStats';

const COUNT = 100_000;
const RUNS = 20;
const DAY = 86_400_000;

// mulberry32: a small seeded PRNG, so every run measures the same records.
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HUBS = ['BLR01', 'DEL02', 'MUM03', 'HYD04', 'CHN05', 'KOL06', 'PUN07', null];
const RESULTS = [...Array<string>(24).fill('passed'), 'E001', 'E002', 'E003', 'E004', 'E005', 'E006', 'E007', 'E008', 'E009', 'E010'];
const OPERATORS = Array.from({ length: 40 }, (_, i) => `wm_${String(i).padStart(2, '0')}`);

function buildRecords(now: number): DeviceRecord[] {
  const random = prng(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const iso = (t: number) => new Date(t).toISOString();
  return Array.from({ length: COUNT }, (_, id): DeviceRecord => {
    const created = now - random() * 45 * DAY;
    const state = random(); // pending, submitted, verified at hub, detached at RC
    const submitted = state > 0.25;
    const verified = state > 0.55;
    const submitTime = created + random() * 2 * DAY;
    const verifyTime = submitTime + random() * 3 * DAY;
    return {
      id,
      tracking_id: {
        tracking_id: `TRK${String(id).padStart(8, '0')}`,
        hub_code: pick(HUBS),
        created_date: random() < 0.001 ? 'not a date' : iso(created),
        device_type: 'mobile',
        is_Blindpick: false,
        Blind_brand: null,
        Blind_model: null,
        device_model_name: 'Galaxy S24',
        device_brand: 'Samsung',
      },
      is_submit: submitted,
      submit_time: submitted ? iso(submitTime) : null,
      submitted_by: submitted && random() > 0.02 ? { username: pick(OPERATORS) } : null,
      submitted_device_name: submitted ? 'SM-S921B' : null,
      submitted_manufacturer: submitted ? 'samsung' : null,
      is_verified: verified,
      verify_time: verified ? iso(verifyTime) : null,
      verified_by: verified ? { username: 'hub_staff' } : null,
      is_verified_rc: state > 0.85,
      verified_by_rc: state > 0.85 ? { username: 'rc_staff' } : null,
      verify_time_rc: state > 0.85 ? iso(verifyTime + DAY) : null,
      is_verified_rc_by: state > 0.85,
      device_result: submitted ? pick(RESULTS) : null,
    };
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2;
}

const now = new Date();
const records = buildRecords(now.getTime());
for (const selection of [
  { hub: 'all', timeframe: 'last30' },
  { hub: 'blr01', timeframe: 'last30' },
] satisfies Selection[]) {
  for (let i = 0; i < 5; i++) dashboardStats(records, selection, now);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Time the aggregation, not a collection of garbage left by building the records.
    (globalThis as { gc?: () => void }).gc?.();
    const start = performance.now();
    dashboardStats(records, selection, now);
    times.push(performance.now() - start);
  }
  const stats = dashboardStats(records, selection, now);
  console.log(
    `${COUNT.toLocaleString('en')} records, hub=${selection.hub} timeframe=${selection.timeframe}: ` +
      `median ${median(times).toFixed(1)} ms (min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)}; goal ≤ 50 ms)` +
      ` — verified ${stats.verified}, pending ${stats.pending}, rejection ${stats.rejection}`,
  );
}
