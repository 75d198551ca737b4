// Benchmark of the event stream (docs/events.md): the simulator against one instance, first with
// no console open, then with STREAMS consoles holding api/events/ open. Prints the server's CPU and
// peak resident memory in each run, the simulator's calls/s and p95, and what the streams received
// (every stream must receive every event: the fewest and the most a stream got).
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadVolumeData } from '../seed';
import { formatSummary } from '../sim/simulation';
import { SIMULATED_OPERATORS, SIMULATED_RECORDS, openEventStreams, simulateFieldWork } from './event-streams';
import { forEachEngine, mb, startServerProcess, withDatabase, type EngineOptions, type ServerProcess } from './harness';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 500);

/** CPU seconds the process has used so far (user + system; /proc/<pid>/stat fields 14 and 15, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function simulate(server: ServerProcess, seed: number) {
  const pid = server.child.pid!;
  server.resetPeakRss();
  const cpuBefore = cpuSeconds(pid);
  const started = Date.now();
  const summary = await simulateFieldWork(server.base, seed);
  const seconds = (Date.now() - started) / 1000;
  const cpu = (cpuSeconds(pid) - cpuBefore) / seconds;
  return { summary, cpu, peakRss: server.peakRssBytes() };
}

function report(label: string, run: Awaited<ReturnType<typeof simulate>>) {
  const { summary, cpu, peakRss } = run;
  const rate = (summary.calls / (summary.elapsedMs / 1000)).toFixed(0);
  console.log(
    `   ${label}: ${rate} app calls/s, p95 ${summary.latencyMs.p95.toFixed(1)} ms; server CPU ${(cpu * 100).toFixed(0)}% of a core, peak RSS ${mb(peakRss)}`,
  );
}

async function bench(label: string, options: EngineOptions) {
  console.log(
    `\n== ${label}: the simulator (${SIMULATED_OPERATORS} operators, ${SIMULATED_RECORDS} items) with 0, then ${STREAMS} event streams open`,
  );
  await withDatabase(options, (db) => loadVolumeData(db, { records: 0 }));
  const server = await startServerProcess(options);
  try {
    report('no stream', await simulate(server, 7));

    server.resetPeakRss();
    const streams = await openEventStreams(server.base, STREAMS);
    console.log(`   ${STREAMS} streams open: peak RSS ${mb(server.peakRssBytes())}`);

    const run = await simulate(server, 8);
    report(`${STREAMS} streams`, run);
    // The last events of the run may still be on their way.
    await sleep(2000);
    const counts = streams.map((s) => s.events);
    console.log(`   events received per stream: fewest ${Math.min(...counts)}, most ${Math.max(...counts)}`);
    console.log(formatSummary(run.summary).replace(/^/gm, '   '));
    for (const stream of streams) stream.request.destroy();
  } finally {
    await server.stop();
  }
}

forEachEngine(bench).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
