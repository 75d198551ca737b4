// Benchmark: a brand-new remote, publish → visible in an open console (docs/architecture.md#composition).
// A remote is created from the template outside the repository and built once; then, for each run,
// a version of it is published and promoted with the deploy command (a token scoped to it) while an
// admin's console is open, and the console navigates once and opens the Data menu: the figures are
// the deploy command's time (publish and promote, without the build) and the time from its end to
// the new menu entry shown at that next navigation. Each run retires the remote first.
// Run (after pnpm build): pnpm --filter e2e bench:publish
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signedInApi } from '../support/api-session';
import { DEMO, launchBrowser, signIn } from '../support/browser';
import { deploy } from '../support/remote-builds';
import { repoRoot, startServer, stopServer } from '../support/server';
import { median } from './harness';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const REMOTE = 'bench-desk';
const TITLE = 'Bench Desk';

function run(args: string[], cwd: string): void {
  const result = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
}

async function main(): Promise<void> {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-bench-remote-'));
  const folder = path.join(workspace, `mfe-${REMOTE}`);
  run(
    ['--import', 'tsx', path.join(repoRoot, 'scripts/create-remote.ts'), REMOTE, '--dir', workspace, '--title', TITLE],
    repoRoot,
  );
  const webpack = require.resolve('webpack/bin/webpack.js', { paths: [path.join(repoRoot, 'mfe-devices')] });
  run([webpack, '--mode', 'production'], folder);

  const server = await startServer();
  const browser = await launchBrowser();
  const superAdmin = await signedInApi(server.url, DEMO.superAdmin);
  try {
    const { secret } = await superAdmin.post<{ secret: string }>('/veritas/registry/tokens/', {
      label: 'bench',
      scope: `deploy:${REMOTE}`,
      expiresOn: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
    });
    const page = await (await browser.newContext({ baseURL: server.url })).newPage();
    await signIn(page, DEMO.admin);
    const deploys: number[] = [];
    const visible: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await page.goto('/Dashboard');
      await page.getByRole('button', { name: 'Data' }).waitFor();
      const started = Date.now();
      const deployed = deploy(server.url, folder, secret, '--promote');
      if (deployed.status !== 0) throw new Error(deployed.output);
      const ended = Date.now();
      deploys.push(ended - started);
      // The open console's next navigation, then its Data menu.
      await page.getByRole('link', { name: 'Veritas', exact: true }).click();
      await page.getByRole('button', { name: 'Data' }).click();
      await page.getByRole('menuitem', { name: TITLE }).waitFor({ timeout: 30_000 });
      visible.push(Date.now() - ended);
      await page.keyboard.press('Escape');
      await superAdmin.post(`/veritas/registry/remotes/${REMOTE}/retire/`);
    }
    const list = (values: number[]) => values.join(', ');
    console.log(`deploy --promote (publish and promote, no build): median ${median(deploys)} ms (${list(deploys)})`);
    console.log(
      `its end → menu entry shown at the open console's next navigation: median ${median(visible)} ms (${list(visible)})`,
    );
  } finally {
    await superAdmin.api.dispose();
    await browser.close();
    await stopServer(server);
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
