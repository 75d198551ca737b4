// Runs code in the page with the console's own HTTP client: the `http` of the @veritas/shared
// singleton the shell and every remote share, taken from the Module Federation runtime of the
// page, so a test exercises exactly what the console's screens call through.
import type { Page } from 'playwright-core';

/** The part of the console's axios instance tests call. */
export interface ConsoleClient {
  get(url: string): Promise<{ status: number; data: unknown }>;
  post(url: string, body?: unknown): Promise<{ status: number; data: unknown }>;
}

interface FederationHost {
  name: string;
  loadShare(pkg: string): Promise<false | (() => { http: ConsoleClient })>;
}

export async function consoleHttp<T>(page: Page, work: (client: ConsoleClient) => Promise<T>): Promise<T> {
  const client = await page.evaluateHandle(async () => {
    const { __FEDERATION__ } = globalThis as unknown as { __FEDERATION__: { __INSTANCES__: FederationHost[] } };
    const shell = __FEDERATION__.__INSTANCES__.find((instance) => instance.name === 'shell');
    const factory = await shell?.loadShare('@veritas/shared');
    if (!factory) throw new Error('@veritas/shared is not shared in this page');
    return factory().http;
  });
  try {
    return await page.evaluate(work, client);
  } finally {
    await client.dispose();
  }
}
