// Waiting in a test for what another thread, process or timer brings about.
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Resolves once `condition` holds, checked every 10 ms; with `withinMs`, fails after that long
 * (otherwise the test's own timeout bounds it).
 */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  withinMs = Number.POSITIVE_INFINITY,
): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms`);
    await sleep(10);
  }
}
