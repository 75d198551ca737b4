// Waiting in a test for what another thread, process or timer brings about: the one helper of the
// API suite and the browser suite for it.
import { setTimeout as sleep } from 'node:timers/promises';

export interface Patience {
  /** Fails after this long; otherwise the test's own timeout bounds the wait. */
  withinMs?: number;
  /** How often the condition is checked (10 ms unless said). */
  everyMs?: number;
  /** What the failure says beyond the wait, read when it fails (a server's output, say). */
  saying?: () => string;
}

/** Resolves once `condition` holds, checked every `everyMs`; with `withinMs`, fails after that long. */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  { withinMs = Number.POSITIVE_INFINITY, everyMs = 10, saying }: Patience = {},
): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms${saying ? `: ${saying()}` : ''}`);
    await sleep(everyMs);
  }
}
