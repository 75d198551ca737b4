// What the event benchmarks (bench:events, e2e's bench:live) play: consoles holding api/events/
// open, one session (admin_demo) shared by every stream, each counting the events it receives; and
// the simulator's field work that sends them events.
import http from 'node:http';
import { DEMO_PASSWORD } from '../seed';
import { runSimulation, type SimulationSummary } from '../sim/simulation';
import { WebClient } from '../sim/web-client';

export const SIMULATED_OPERATORS = 16;
export const SIMULATED_RECORDS = 2000;

/** One run of the simulator against `base` (no trailing slash): its operators and items as fast as answered. */
export function simulateFieldWork(base: string, seed: number): Promise<SimulationSummary> {
  return runSimulation({
    url: base,
    adminUser: 'admin_demo',
    adminPassword: DEMO_PASSWORD,
    operators: SIMULATED_OPERATORS,
    records: SIMULATED_RECORDS,
    rate: 0,
    seed,
  });
}

export interface EventStreamClient {
  events: number;
  request: http.ClientRequest;
}

/** Opens api/events/ with the session cookie; counts the events (their `id:` lines) it receives. */
function openStream(base: string, cookie: string): Promise<EventStreamClient> {
  return new Promise((resolve, reject) => {
    const stream = { events: 0 } as EventStreamClient;
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

/** Signs admin_demo in at `base` (no trailing slash) and opens `count` streams, 50 at a time. */
export async function openEventStreams(base: string, count: number): Promise<EventStreamClient[]> {
  const client = new WebClient(base);
  const login = await client.login('admin_demo', DEMO_PASSWORD);
  if (login.status !== 200) throw new Error(`sign-in: ${login.status}`);
  const cookie = client.cookieHeader();
  const streams: EventStreamClient[] = [];
  for (let i = 0; i < count; i += 50) {
    streams.push(
      ...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => openStream(base, cookie)))),
    );
  }
  return streams;
}
