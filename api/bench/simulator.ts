// Benchmark of the field-scan engine under the simulator: many operators, hub and RC staff
// working one shipment at once through the app's HTTP calls, as fast as the server answers.
// Prints app calls per second and latency per engine (the server runs in its own process).
import { DEMO_PASSWORD, loadVolumeData } from '../seed';
import { formatSummary, runSimulation } from '../sim/simulation';
import { forEachEngine, startServerProcess, withDatabase, type EngineOptions } from './harness';

const OPERATORS = 16;
const RECORDS = 3000;

async function bench(label: string, options: EngineOptions) {
  console.log(`\n== ${label}: ${OPERATORS} operators working ${RECORDS.toLocaleString('en-US')} items at once`);
  await withDatabase(options, (db) => loadVolumeData(db, { records: 0 }));
  const server = await startServerProcess(options);
  try {
    const summary = await runSimulation({
      url: server.base,
      adminUser: 'admin_demo',
      adminPassword: DEMO_PASSWORD,
      operators: OPERATORS,
      records: RECORDS,
      rate: 0,
      seed: 7,
    });
    console.log(formatSummary(summary).replace(/^/gm, '   '));
  } finally {
    server.stop();
  }
}

forEachEngine(bench).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
