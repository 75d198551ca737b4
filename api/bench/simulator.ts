// Benchmark of the field scans under the simulator: many operators, hub and RC staff
// working one shipment at once through the app's HTTP calls, as fast as the server answers.
// Prints app calls per second and latency per engine (the server runs in its own process).
// Each engine runs BENCH_AUDIT_PAIRS (default 3) pairs of simulations, with the audit trail and
// without (createServer({ auditTrail: false })), alternating, each on a fresh database: the median
// calls/s of each and what the trail costs (goal ≤ 5%). BENCH_CASE_PAIRS=N runs N pairs with case
// opening and without (createServer({ caseOpening: false })) instead: what opening the flagged
// items' cases costs (goal ≤ 5%).
import os from 'node:os';
import { DEMO_PASSWORD, loadVolumeData } from '../seed';
import { formatSummary, runSimulation } from '../sim/simulation';
import { auditHead } from './audit-volume';
import {
  CASE_PAIRS,
  compareAuditTrail,
  compareCaseOpening,
  forEachEngine,
  startServerProcess,
  withDatabase,
  withFreshDatabase,
  type AuditRunFigure,
  type BenchServerOptions,
  type EngineOptions,
} from './harness';

const OPERATORS = 16;
const RECORDS = 3000;

/**
 * One simulation on a fresh database; prints its summary, answers its calls/s and its app calls per
 * second of the server's CPU over the whole run (the field staff's creation and the shipment's
 * upload included: the same in every run).
 */
async function simulateOnce(options: EngineOptions, serverOptions: BenchServerOptions): Promise<AuditRunFigure> {
  await withDatabase(options, (db) => loadVolumeData(db, { records: 0 }));
  const server = await startServerProcess(options, {}, serverOptions);
  try {
    const cpuBefore = server.cpuSeconds();
    const summary = await runSimulation({
      url: server.base,
      adminUser: 'admin_demo',
      adminPassword: DEMO_PASSWORD,
      operators: OPERATORS,
      records: RECORDS,
      rate: 0,
      seed: 7,
    });
    const cpu = server.cpuSeconds() - cpuBefore;
    console.log(formatSummary(summary).replace(/^/gm, '   '));
    console.log(
      `   server CPU time ${cpu.toFixed(2)} s for the whole run (load average ${os.loadavg()[0]!.toFixed(2)})`,
    );
    return { rate: summary.calls / (summary.elapsedMs / 1000), perCpuSecond: summary.calls / cpu };
  } finally {
    await server.stop();
    const cases = await withDatabase(options, async (db) =>
      Number(
        (
          await db.kysely
            .selectFrom('cases')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    );
    console.log(`   ${await withDatabase(options, auditHead)} audit entries written, ${cases} cases opened`);
  }
}

async function bench(label: string, options: EngineOptions) {
  console.log(`\n== ${label}: ${OPERATORS} operators working ${RECORDS.toLocaleString('en-US')} items at once`);
  if (CASE_PAIRS > 0) {
    await compareCaseOpening('calls/s', (caseOpening, run) =>
      withFreshDatabase(options, run, (fresh) => simulateOnce(fresh, { caseOpening })),
    );
    return;
  }
  await compareAuditTrail('calls/s', (auditTrail, run) =>
    withFreshDatabase(options, run, (fresh) => simulateOnce(fresh, { auditTrail })),
  );
}

forEachEngine(bench).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
