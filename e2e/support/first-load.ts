// The login page's first load (docs/architecture.md#the-shells-first-load): the scripts a browser
// with nothing cached loads before the login form accepts input, each with its size raw and
// gzipped. bench:shell prints it; the shell's browser test holds it to its budget.
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';

/** The goal of the login page's first load, in KB of gzip. */
export const FIRST_LOAD_BUDGET_KB = 150;

export interface LoadedScript {
  url: string;
  raw: number;
  gzip: number;
}

/** What `scripts` weigh together, in bytes: as sent uncompressed and gzipped. */
export function totalSize(scripts: readonly LoadedScript[]): { raw: number; gzip: number } {
  return scripts.reduce((sum, script) => ({ raw: sum.raw + script.raw, gzip: sum.gzip + script.gzip }), {
    raw: 0,
    gzip: 0,
  });
}

/** Opens `loginUrl` in `page` (of a fresh context) and answers the scripts loaded until the form takes input. */
export async function loginFirstLoad(page: Page, loginUrl: string): Promise<LoadedScript[]> {
  const scripts: Promise<LoadedScript>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    scripts.push(res.body().then((body) => ({ url: res.url(), raw: body.length, gzip: gzipSync(body).length })));
  });
  await page.goto(loginUrl);
  await page.getByRole('button', { name: 'Login' }).waitFor();
  await page.getByLabel('Username').fill('x'); // interactive: accepts input
  return Promise.all(scripts);
}
