// Benchmark: the remote registry, served as `pnpm start` serves it (demo data). Prints:
// - publish: the deploy command's own figure, the publish without the build, for new builds of devices;
// - bytes stored per version: the files of a version, and the new bytes a one-line change stores;
// - promote → an open console's next navigation shows the new version (promote answered → the
//   new title on screen after clicking Stats);
// - GET /remotes.json latency for a signed-in viewer (sequential).
// Run: pnpm --filter e2e bench:registry (after pnpm build).
import fs from 'node:fs';
import path from 'node:path';
import { DEMO, launchBrowser, signIn } from '../support/browser';
import { signedInApi } from '../support/api-session';
import { buildDevices, deploy, removeBuilds } from '../support/remote-builds';
import { startServer, stopServer } from '../support/server';
import { median } from './harness';

const BUILDS = 3;
const NAVIGATIONS = 5;
const REMOTES_JSON_CALLS = 500;

interface Version {
  version: number;
  bytes: number;
}

async function main(): Promise<void> {
  const folders = Array.from({ length: BUILDS }, (_, i) => buildDevices(`Device Pick List (bench ${i + 1})`));
  const server = await startServer();
  const browser = await launchBrowser();
  const admin = await signedInApi(server.url, DEMO.superAdmin);
  try {
    const { secret } = await admin.post<{ secret: string }>('/veritas/registry/tokens/', {
      label: 'benchmark',
      scope: 'deploy:devices',
      expiresOn: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
    });

    const publishMs: number[] = [];
    const versions: number[] = [];
    for (const folder of folders) {
      const { status, output } = deploy(server.url, folder, secret);
      if (status !== 0) throw new Error(output);
      publishMs.push(Number(/(\d+) ms/.exec(output)![1]));
      versions.push(Number(/devices v(\d+)/.exec(output)![1]));
    }
    const { versions: kept } = await admin.get<{ versions: Version[] }>('/veritas/registry/remotes/devices/');
    const first = kept.at(-1)!;
    const changed = versions.map((v) => kept.find((k) => k.version === v)!.bytes);
    const buildBytes = fs
      .readdirSync(path.join(folders[0]!, 'dist'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name !== 'index.html')
      .reduce((sum, entry) => sum + fs.statSync(path.join(entry.parentPath, entry.name)).size, 0);

    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await signIn(page, DEMO.admin);
    const shown: number[] = [];
    for (let run = 0; run < NAVIGATIONS; run++) {
      const version = versions[run % versions.length]!;
      await page.goto('/Dashboard');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await admin.post('/veritas/registry/remotes/devices/promote/', { version });
      const promoted = performance.now();
      await page.getByRole('button', { name: 'Data' }).click();
      await page.getByRole('menuitem', { name: 'Stats' }).click();
      await page.getByRole('heading', { name: `Device Pick List (bench ${(run % versions.length) + 1})` }).waitFor();
      shown.push(performance.now() - promoted);
    }

    const latencies: number[] = [];
    const cookies = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    for (let i = 0; i < REMOTES_JSON_CALLS; i++) {
      const start = performance.now();
      const response = await fetch(new URL('/remotes.json', server.url), { headers: { cookie: cookies } });
      await response.arrayBuffer();
      latencies.push(performance.now() - start);
    }
    latencies.sort((a, b) => a - b);

    const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
    const fmt = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
    console.log(
      `registry: publish of a devices build, without the build ${median(publishMs)} ms (runs ${fmt(publishMs)})`,
    );
    console.log(
      `registry: bytes stored per version: a build's files ${kb(buildBytes)}, the first version (pnpm start) stored ${kb(first.bytes)} gzip, a one-line change stored ${fmt(changed.map((b) => b / 1024))} KB`,
    );
    console.log(
      `registry: promote → the open console's next navigation shows the new version ${median(shown).toFixed(0)} ms (runs ${fmt(shown)})`,
    );
    console.log(
      `registry: GET /remotes.json p50 ${latencies[Math.floor(latencies.length / 2)]!.toFixed(1)} ms, p95 ${latencies[Math.floor(latencies.length * 0.95)]!.toFixed(1)} ms (${REMOTES_JSON_CALLS} sequential calls)`,
    );
  } finally {
    await admin.api.dispose();
    await browser.close();
    await stopServer(server);
    removeBuilds();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
