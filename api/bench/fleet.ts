// Benchmark of the fleet (docs/operations.md#fleet): the simulator against 1, 2 and 4 instances
// of the production composition behind nginx on one PostgreSQL (a throwaway cluster per run), as
// `pnpm start:fleet` runs them. Prints calls/s and p95 per fleet size. Needs the production build
// (`pnpm build`) and nginx (/usr/sbin/nginx). BENCH_FLEET_SIZES=1,2 chooses the sizes.
import { DEMO_PASSWORD } from '../seed';
import { formatSummary, runSimulation } from '../sim/simulation';
import { startFleet } from '../../scripts/fleet';

const SIZES = (process.env.BENCH_FLEET_SIZES ?? '1,2,4').split(',').map(Number);
const OPERATORS = 32;
const RECORDS = 4000;
/** nginx's port; the instances listen 10, 20, … above it. */
const PORT = Number(process.env.BENCH_FLEET_PORT ?? 18400);

async function bench(instances: number) {
  console.log(
    `\n== ${instances} instance${instances === 1 ? '' : 's'} behind nginx: ${OPERATORS} operators working ${RECORDS} items at once`,
  );
  const fleet = await startFleet({ instances, port: PORT, output: () => {} });
  try {
    const summary = await runSimulation({
      url: fleet.url.replace(/\/$/, ''),
      adminUser: 'admin_demo',
      adminPassword: DEMO_PASSWORD,
      operators: OPERATORS,
      records: RECORDS,
      rate: 0,
      seed: 7,
    });
    const rate = summary.calls / (summary.elapsedMs / 1000);
    console.log(`   ${rate.toFixed(0)} app calls/s, p95 ${summary.latencyMs.p95.toFixed(1)} ms`);
    console.log(formatSummary(summary).replace(/^/gm, '   '));
    return rate;
  } finally {
    await fleet.stop();
  }
}

async function main() {
  const rates = new Map<number, number>();
  for (const size of SIZES) rates.set(size, await bench(size));
  const one = rates.get(SIZES[0]!)!;
  console.log(
    `\ncalls/s relative to ${SIZES[0]} instance(s): ${SIZES.map((size) => `${size}: ×${(rates.get(size)! / one).toFixed(2)}`).join(', ')}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
