// Benchmark of the event stream (docs/events.md): the simulator against one instance, first with
// no console open, then with STREAMS consoles holding api/events/ open. Prints the server's CPU and
// peak resident memory in each run, the simulator's calls/s and p95, and what the streams received
// (every stream must receive every event: the fewest and the most a stream got).
import fs from 'node:fs';
import http from 'node:http';
import { DEMO_PASSWORD, loadVolumeData } from '../seed';
import { formatSummary, runSimulation, type SimulationSummary } from '../sim/simulation';
import { WebClient } from '../sim/web-client';
import { forEachEngine, mb, startServerProcess, withDatabase, type EngineOptions, type ServerProcess } from './harness';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 500);
const OPERATORS = 16;
const RECORDS = 2000;

/** CPU seconds the process has used so far (user + system; /proc/<pid>/stat fields 14 and 15, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Stream {
  events: number;
  request: http.ClientRequest;
}

/** Opens api/events/ with the session cookie; counts the events (their `id:` lines) it receives. */
function openStream(base: string, cookie: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const stream = { events: 0 } as Stream;
    stream.request = http.get(
      `${base}/veritas/api/events/`,
      { headers: { cookie, accept: 'text/event-stream' }, agent: false },
      (response) => {
        if (response.statusCode !== 200) return reject(new Error(`api/events/: status ${response.statusCode}`));
        response.setEncoding('utf8');
        let rest = '';
        response.on('data', (text: string) => {
          const lines = (rest + text).split('\n');
          rest = lines.pop()!;
          for (const line of lines) if (line.startsWith('id:')) stream.events++;
        });
        resolve(stream);
      },
    );
    // Before the answer, a failure fails the benchmark; after it, the only one expected is destroy() at the end.
    stream.request.on('error', reject);
  });
}

async function simulate(server: ServerProcess, seed: number) {
  const pid = server.child.pid!;
  server.resetPeakRss();
  const cpuBefore = cpuSeconds(pid);
  const started = Date.now();
  const summary: SimulationSummary = await runSimulation({
    url: server.base,
    adminUser: 'admin_demo',
    adminPassword: DEMO_PASSWORD,
    operators: OPERATORS,
    records: RECORDS,
    rate: 0,
    seed,
  });
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
    `\n== ${label}: the simulator (${OPERATORS} operators, ${RECORDS} items) with 0, then ${STREAMS} event streams open`,
  );
  await withDatabase(options, (db) => loadVolumeData(db, { records: 0 }));
  const server = await startServerProcess(options);
  try {
    report('no stream', await simulate(server, 7));

    const client = new WebClient(server.base);
    const login = await client.login('admin_demo', DEMO_PASSWORD);
    if (login.status !== 200) throw new Error(`sign-in: ${login.status}`);
    const cookie = [...client.cookies].map(([name, c]) => `${name}=${c.value}`).join('; ');
    server.resetPeakRss();
    const streams: Stream[] = [];
    for (let i = 0; i < STREAMS; i += 50) {
      streams.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(50, STREAMS - i) }, () => openStream(server.base, cookie)),
        )),
      );
    }
    console.log(`   ${STREAMS} streams open: peak RSS ${mb(server.peakRssBytes())}`);

    const run = await simulate(server, 8);
    report(`${STREAMS} streams`, run);
    // The last events of the run may still be on their way.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const counts = streams.map((s) => s.events);
    console.log(`   events received per stream: fewest ${Math.min(...counts)}, most ${Math.max(...counts)}`);
    console.log(formatSummary(run.summary).replace(/^/gm, '   '));
    for (const stream of streams) stream.request.destroy();
  } finally {
    server.stop();
  }
}

forEachEngine(bench).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
