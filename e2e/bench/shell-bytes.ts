// Benchmark: JavaScript the browser loads before the login form is interactive (goal ≤ 150 KB gzip).
// Run: pnpm --filter e2e bench:shell  (needs a production build: pnpm build)
import { launchBrowser } from '../support/browser';
import { FIRST_LOAD_BUDGET_KB, loginFirstLoad, totalSize } from '../support/first-load';
import { startServer, stopServer } from '../support/server';

async function main(): Promise<void> {
  const server = await startServer({ VERITAS_DEMO: '0' });
  const browser = await launchBrowser();
  try {
    const page = await (await browser.newContext()).newPage();
    const started = performance.now();
    const loaded = await loginFirstLoad(page, `${server.url}login`);
    const interactiveMs = performance.now() - started;
    const { raw, gzip } = totalSize(loaded);
    for (const s of loaded)
      console.log(`  ${(s.gzip / 1024).toFixed(1).padStart(7)} KB gzip  ${new URL(s.url).pathname}`);
    console.log(`shell: ${loaded.length} scripts before the login form is interactive`);
    console.log(
      `shell: JS ${(raw / 1024).toFixed(1)} KB raw, ${(gzip / 1024).toFixed(1)} KB gzip, ${gzip.toLocaleString('en')} bytes (goal ≤ ${FIRST_LOAD_BUDGET_KB} KB gzip)`,
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
