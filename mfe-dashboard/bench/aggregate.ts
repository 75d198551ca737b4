// The dashboard's aggregation over 100,000 records (goal ≤ 50 ms): every figure for last30 on
// all hubs and on one hub, median of 20 runs after warm-up. Records are built in-process, by the
// volume builder of @veritas/shared/testing/records.
import { type DeviceRecord } from '@veritas/shared';
import { dashboardStats, type Selection } from '@veritas/shared/domain';
import { seededRandom, volumeRecord, type VolumeDevice, type VolumeHub } from '@veritas/shared/testing/records';

const COUNT = 100_000;
const RUNS = 20;

/** Seven hubs with their staff: the records come from the builder of the tests and the API's benchmark volume. */
const HUBS: readonly VolumeHub[] = ['BLR01', 'DEL02', 'MUM03', 'HYD04', 'CHN05', 'KOL06', 'PUN07'].map((code, i) => ({
  code,
  operator: `wm_${String(i).padStart(2, '0')}`,
  verifier: `exec_${i}`,
  rc: i % 2 ? 'rc_north' : 'rc_south',
}));
const DEVICES: readonly VolumeDevice[] = [
  { type: 'mobile', brand: 'Samsung', model: 'Galaxy S24', manufacturer: 'Samsung Electronics Co.,Ltd' },
  {
    type: 'laptop',
    brand: 'Lenovo',
    model: 'ThinkPad E14',
    manufacturer: 'LCFC(HeFei) Electronics Technology co., ltd',
  },
  { type: 'smarttv', brand: 'LG', model: 'OLED55C3', manufacturer: 'LG Electronics' },
];

function buildRecords(now: number): DeviceRecord[] {
  const options = { rand: seededRandom(42), now, count: COUNT, hubs: HUBS, devices: DEVICES };
  return Array.from({ length: options.count }, (_, i) => volumeRecord(i, options));
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
