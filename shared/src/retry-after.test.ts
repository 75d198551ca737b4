/** @jest-environment node */
// When a client repeats a call answered 503 with Retry-After (retry-after.ts,
// docs/errors.md#database-unavailable).
import { fetchHonouringRetryAfter, retryAfterSeconds, retryAfterWait } from './retry-after';

test('Retry-After is read as delay-seconds or an HTTP date; anything else is no Retry-After', () => {
  const now = Date.parse('2026-11-27T10:00:00Z');
  expect(retryAfterSeconds('2', now)).toBe(2);
  expect(retryAfterSeconds(' 0 ', now)).toBe(0);
  expect(retryAfterSeconds('Fri, 27 Nov 2026 10:00:05 GMT', now)).toBe(5);
  expect(retryAfterSeconds('Fri, 27 Nov 2026 09:59:00 GMT', now)).toBe(0);
  expect(retryAfterSeconds('-1', now)).toBeNull();
  expect(retryAfterSeconds('soon', now)).toBeNull();
  expect(retryAfterSeconds('', now)).toBeNull();
  expect(retryAfterSeconds(null, now)).toBeNull();
});

test('only a 503 with Retry-After is waited out, within the repeats, the total and the longest wait of the budget', () => {
  const start = { repeats: 0, waitedMs: 0 };
  expect(retryAfterWait(503, '1', start, { repeats: 3 })).toBe(1000);
  expect(retryAfterWait(500, '1', start, { repeats: 3 })).toBeNull();
  expect(retryAfterWait(429, '1', start, { repeats: 3 })).toBeNull();
  expect(retryAfterWait(503, null, start, { repeats: 3 })).toBeNull();
  expect(retryAfterWait(503, '1', { repeats: 3, waitedMs: 0 }, { repeats: 3 })).toBeNull();
  expect(retryAfterWait(503, '2', { repeats: 1, waitedMs: 4000 }, { repeats: 3, totalWaitMs: 5000 })).toBeNull();
  expect(retryAfterWait(503, '1', { repeats: 1, waitedMs: 4000 }, { repeats: 3, totalWaitMs: 5000 })).toBe(1000);
  expect(retryAfterWait(503, '90', start, { repeats: 3, longestWaitMs: 30_000 })).toBe(30_000);
});

describe('fetchHonouringRetryAfter', () => {
  const busy = (body: unknown = { detail: 'Busy' }) =>
    new Response(JSON.stringify(body), { status: 503, headers: { 'Retry-After': '0' } });
  let answers: Response[];
  let calls: RequestInit[];

  beforeEach(() => {
    calls = [];
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
      calls.push(init ?? {});
      return answers.shift()!;
    });
  });
  afterEach(() => jest.restoreAllMocks());

  test('a GET is repeated until it is answered, telling each wait', async () => {
    answers = [busy(), busy(), new Response('ok')];
    const waits: number[] = [];
    const response = await fetchHonouringRetryAfter(
      'http://console/veritas/api/x',
      {},
      { budget: { repeats: 3 }, onWait: (_ms, repeat) => waits.push(repeat) },
    );
    expect(await response.text()).toBe('ok');
    expect(waits).toEqual([1, 2]);
  });

  test('past the budget the 503 is the answer', async () => {
    answers = [busy(), busy(), busy()];
    const response = await fetchHonouringRetryAfter('http://console/x', {}, { budget: { repeats: 2 } });
    expect(response.status).toBe(503);
    expect(calls).toHaveLength(3);
  });

  test('a write is repeated only when not applied, or when repeating it is harmless', async () => {
    answers = [busy({ outcome: 'unknown' })];
    expect(
      (await fetchHonouringRetryAfter('http://console/x', { method: 'POST' }, { budget: { repeats: 3 } })).status,
    ).toBe(503);
    expect(calls).toHaveLength(1);

    answers = [busy({ outcome: 'not-applied' }), new Response('ok')];
    expect(
      (await fetchHonouringRetryAfter('http://console/x', { method: 'POST' }, { budget: { repeats: 3 } })).status,
    ).toBe(200);

    answers = [busy(), new Response('ok')];
    const idempotent = { budget: { repeats: 3 }, idempotent: true };
    expect((await fetchHonouringRetryAfter('http://console/x', { method: 'POST' }, idempotent)).status).toBe(200);
  });

  test('options given as a function are made anew for each attempt', async () => {
    answers = [busy(), new Response('ok')];
    let made = 0;
    await fetchHonouringRetryAfter('http://console/x', () => ({ headers: { attempt: String(++made) } }), {
      budget: { repeats: 3 },
    });
    expect(calls.map((init) => (init.headers as Record<string, string>).attempt)).toEqual(['1', '2']);
  });
});
