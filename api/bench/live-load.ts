// The load of e2e's bench:live: `tsx bench/live-load.ts URL STREAMS` opens STREAMS event streams on
// the instance at URL, as bench:events does, then runs the simulator (16 operators, 2,000 items, as
// fast as answered) against it, one run after another, until it is stopped (SIGTERM). Prints
// "ready" once the simulator's scans reach the streams, and at the end the events each received.
import { openEventStreams, simulateFieldWork } from './event-streams';

/** Events a stream has received once the simulator's scans flow. */
const FLOWING = 200;

async function main() {
  const [url, count] = process.argv.slice(2);
  const base = url!.replace(/\/+$/, '');
  const streams = await openEventStreams(base, Number(count));
  let stopping = false;
  process.once('SIGTERM', () => {
    stopping = true;
    const counts = streams.map((s) => s.events);
    console.log(`events received per stream: fewest ${Math.min(...counts)}, most ${Math.max(...counts)}`);
    process.exit(0);
  });
  const ready = setInterval(() => {
    if (streams[0]!.events < FLOWING) return;
    clearInterval(ready);
    console.log('ready');
  }, 50);
  for (let seed = 1; !stopping; seed++) await simulateFieldWork(base, seed);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
