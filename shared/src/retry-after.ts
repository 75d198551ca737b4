// A 503 with Retry-After (docs/errors.md#database-unavailable: the database restarting, a call the
// server could not take yet): when a client repeats the call, and after how long. One rule for the
// console's HTTP client (http.ts), the simulator's (api/sim/web-client.ts) and the deploy command
// (scripts/deploy-remote.ts); no DOM, so each of them runs it.

/** Resolves after `ms`: Node's own is node:timers/promises, which a browser has not. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How far a client waits out 503s before the 503 is its answer. */
export interface RetryAfterBudget {
  /** Repeats of one call at most. */
  repeats: number;
  /** Waiting in all, across its repeats; none by default. */
  totalWaitMs?: number;
  /** One wait at most: a longer Retry-After is cut to it; none by default. */
  longestWaitMs?: number;
}

/** Where a call is in its repeats. */
export interface RetryAfterProgress {
  repeats: number;
  waitedMs: number;
}

/**
 * The seconds a Retry-After header asks to wait: delay-seconds or an HTTP date (RFC 9110, section
 * 10.2.3), a date past being no wait; null for no header or one that is neither.
 */
export function retryAfterSeconds(header: string | null | undefined, now = Date.now()): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  // An HTTP date names its day and month ("Fri, 27 Nov 2026 10:00:05 GMT"): no bare number is one.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? null : Math.max(0, (date - now) / 1000);
}

/**
 * The wait in ms before repeating a call answered `status` with the Retry-After `header`, or null
 * when that answer stands: it is not a 503 with Retry-After, or the budget is spent. Whether the
 * call may be repeated at all (a write whose outcome is unknown may have been applied) is the
 * caller's to decide.
 */
export function retryAfterWait(
  status: number,
  header: string | null | undefined,
  { repeats, waitedMs }: RetryAfterProgress,
  { repeats: most, totalWaitMs = Infinity, longestWaitMs = Infinity }: RetryAfterBudget,
): number | null {
  if (status !== 503 || repeats >= most) return null;
  const seconds = retryAfterSeconds(header);
  if (seconds === null) return null;
  const wait = Math.min(seconds * 1000, longestWaitMs);
  return waitedMs + wait > totalWaitMs ? null : wait;
}

/** Whether a write's 503 says it was not applied (its body's `outcome`), so repeating it is safe. */
export function notApplied(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'outcome' in body && body.outcome === 'not-applied';
}

export interface FetchRetryOptions {
  budget: RetryAfterBudget;
  /** Repeating the call is harmless whatever happened to it (a field scan, a publish): a write is repeated too. */
  idempotent?: boolean;
  /** Hears of each wait before it starts. */
  onWait?(waitMs: number, repeat: number): void;
}

/**
 * fetch, repeating a call answered 503 with Retry-After within `budget`: a GET or an idempotent
 * call always, another write only when the 503's body says it was not applied. `init` may be a
 * function, called for each attempt.
 */
export async function fetchHonouringRetryAfter(
  url: string,
  init: RequestInit | (() => RequestInit),
  { budget, idempotent = false, onWait }: FetchRetryOptions,
): Promise<Response> {
  const progress: RetryAfterProgress = { repeats: 0, waitedMs: 0 };
  for (;;) {
    // A function gives each attempt its own options, e.g. a timeout signal of its own.
    const request = typeof init === 'function' ? init() : init;
    const response = await fetch(url, request);
    const wait = retryAfterWait(response.status, response.headers.get('retry-after'), progress, budget);
    if (wait === null) return response;
    if ((request.method ?? 'GET').toUpperCase() !== 'GET' && !idempotent) {
      const body: unknown = await response
        .clone()
        .json()
        .catch(() => null);
      if (!notApplied(body)) return response;
    }
    await response.body?.cancel();
    progress.repeats++;
    onWait?.(wait, progress.repeats);
    await sleep(wait);
    progress.waitedMs += wait;
  }
}
