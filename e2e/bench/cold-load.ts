// Benchmark: the server's CPU time for a cold page load of the Dashboard, as after a deploy or on
// a first visit: the page document and every file it names (the shell's scripts and the opened
// page's remote files), fetched as a browser with an empty cache asks for them (`Accept-Encoding:
// gzip, deflate, br`), without the page's calls (bench:dashboards has those). Ten such loads at
// once per round; the server's process's CPU time from Linux's /proc, per load.
// Run (after pnpm build): pnpm --filter e2e bench:cold-load
import { readFileSync } from 'node:fs';
import { signedInApi } from '../support/api-session';
import { DEMO } from '../support/browser';
import { startServer, stopServer } from '../support/server';
import { median } from './harness';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const LOADS = 10;

/** The CPU time process `pid` has used so far, in ms: /proc counts it in ticks of 1/100 s. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The paths a page document has the browser fetch: its scripts and its preloads. */
const namedFiles = (html: string) =>
  [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)=["']?(\/[^"'\s>]+)/g)].map((match) =>
    match[1]!.replace(/&amp;/g, '&'),
  );

async function main(): Promise<void> {
  const server = await startServer();
  const session = await signedInApi(server.url, DEMO.admin);
  const cookie = (await session.api.storageState()).cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
  const headers = { cookie, 'accept-encoding': 'gzip, deflate, br' };
  const fetched = async (path: string) => {
    const answer = await fetch(new URL(path, server.url), { headers });
    if (!answer.ok) throw new Error(`${path} answered ${answer.status}`);
    return answer.text();
  };
  const coldLoad = async () => {
    const files = namedFiles(await fetched('/Dashboard'));
    await Promise.all(files.map(fetched));
    return files.length;
  };
  try {
    const files = await coldLoad();
    const perLoad: number[] = [];
    const walls: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const before = cpuMs(server.process.pid!);
      const started = performance.now();
      await Promise.all(Array.from({ length: LOADS }, coldLoad));
      walls.push(performance.now() - started);
      perLoad.push((cpuMs(server.process.pid!) - before) / LOADS);
    }
    console.log(
      `cold Dashboard page load (the document and its ${files} files): the server's CPU time per load, median of ${ROUNDS} rounds of ${LOADS} at once: ${median(perLoad).toFixed(1)} ms (rounds ${perLoad.map((ms) => ms.toFixed(0)).join(', ')}); ${LOADS} loads answered in ${median(walls).toFixed(0)} ms`,
    );
  } finally {
    await session.api.dispose();
    await stopServer(server);
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
