// Benchmark: JavaScript the browser loads before the login form is interactive (goal ≤ 150 KB gzip).
// Run: pnpm --filter e2e bench:shell  (needs a production build: pnpm build)
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../support/browser';
import { startServer, stopServer } from '../support/server';

async function main(): Promise<void> {
  const server = await startServer({ VERITAS_DEMO: '0' });
  const browser = await launchBrowser();
  try {
    const page = await (await browser.newContext()).newPage();
    const scripts: Promise<{ url: string; raw: number; gzip: number }>[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() !== 'script') return;
      scripts.push(res.body().then((body) => ({ url: res.url(), raw: body.length, gzip: gzipSync(body).length })));
    });
    const started = performance.now();
    await page.goto(`${server.url}login`);
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await page.getByLabel('Username').fill('x'); // interactive: accepts input
    const interactiveMs = performance.now() - started;
    const loaded = await Promise.all(scripts);
    const raw = loaded.reduce((n, s) => n + s.raw, 0);
    const gzip = loaded.reduce((n, s) => n + s.gzip, 0);
    for (const s of loaded)
      console.log(`  ${(s.gzip / 1024).toFixed(1).padStart(7)} KB gzip  ${new URL(s.url).pathname}`);
    console.log(`shell: ${loaded.length} scripts before the login form is interactive`);
    console.log(
      `shell: JS ${(raw / 1024).toFixed(1)} KB raw, ${(gzip / 1024).toFixed(1)} KB gzip (goal ≤ 150 KB gzip)`,
    );
    console.log(`shell: login form interactive after ${interactiveMs.toFixed(0)} ms (cold, loopback)`);
  } finally {
    await browser.close();
    await stopServer(server);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
