// One attempt to deliver a message (docs/webhooks.md#delivery), against a real HTTP server: only a
// 2xx is a success and no redirect is followed; an answer not complete within the timeout is a
// failure; the delivery log keeps the start of an answer; Retry-After read in seconds or as a date;
// the message signed with every secret that still signs; connections kept open between attempts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { RESPONSE_START_CHARS, sendAttempt } from '../src/webhooks/send';

const SECRET = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
const OLD_SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const POLICY = { allowLocal: true, timeoutMs: 2000 };
const MESSAGE = {
  id: 'msg_send_test',
  body: JSON.stringify({ type: 'test', timestamp: '2026-11-28T00:00:00Z', data: {} }),
};

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;
let handler: Handler;
const paths: string[] = [];
const connections = new Set<unknown>();
const server = http.createServer((request, response) => {
  paths.push(request.url!);
  connections.add(request.socket);
  request.resume();
  request.on('end', () => handler(request, response));
});
let base = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  paths.length = 0;
});

test('only a 2xx is a success, and a redirect is not followed', async () => {
  handler = (request, response) => {
    if (request.url === '/moved') response.writeHead(302, { location: '/elsewhere' }).end('moved');
    else response.writeHead(204).end();
  };
  const redirected = await sendAttempt(`${base}/moved`, MESSAGE, [SECRET], POLICY);
  expect(redirected).toMatchObject({ status: 302, response: 'moved', retryAfterMs: null });
  expect(paths).toEqual(['/moved']);
  expect(await sendAttempt(`${base}/hooks?team=returns`, MESSAGE, [SECRET], POLICY)).toMatchObject({ status: 204 });
  expect(paths).toEqual(['/moved', '/hooks?team=returns']);
});

test('an answer not complete within the timeout is a failure, its log naming the status it began with', async () => {
  handler = (_request, response) => {
    // Headers at once, the body never: the timeout covers the whole answer.
    response.writeHead(200);
    response.write('partial');
  };
  const attempt = await sendAttempt(`${base}/slow`, MESSAGE, [SECRET], { ...POLICY, timeoutMs: 300 });
  expect(attempt).toMatchObject({ status: null, response: 'The answer (200) was not complete within 0.3 s.' });
  // Ended by the timeout, not by the test's own (a generous bound, not a benchmark).
  expect(attempt.latencyMs).toBeGreaterThanOrEqual(290);
  expect(attempt.latencyMs).toBeLessThan(5000);
});

test('no answer within the timeout is a failure the log calls no answer', async () => {
  handler = () => {
    // Never answers: the request was read, no status comes.
  };
  const attempt = await sendAttempt(`${base}/silent`, MESSAGE, [SECRET], { ...POLICY, timeoutMs: 300 });
  expect(attempt).toMatchObject({ status: null, response: 'No answer within 0.3 s.' });
});

test('the delivery log keeps the start of an answer, not all of it', async () => {
  handler = (_request, response) => response.writeHead(500).end('x'.repeat(100_000));
  const attempt = await sendAttempt(`${base}/long`, MESSAGE, [SECRET], POLICY);
  expect(attempt.status).toBe(500);
  expect(attempt.response).toBe('x'.repeat(RESPONSE_START_CHARS));
});

test('Retry-After is read in seconds or as an HTTP date', async () => {
  handler = (_request, response) => response.writeHead(429, { 'retry-after': '7' }).end();
  expect((await sendAttempt(`${base}/busy`, MESSAGE, [SECRET], POLICY)).retryAfterMs).toBe(7000);
  handler = (_request, response) =>
    response.writeHead(503, { 'retry-after': new Date(Date.now() + 60_000).toUTCString() }).end();
  const byDate = (await sendAttempt(`${base}/busy`, MESSAGE, [SECRET], POLICY)).retryAfterMs!;
  expect(byDate).toBeGreaterThan(55_000);
  expect(byDate).toBeLessThanOrEqual(60_000);
});

test('a message carries a signature of every secret that still signs, each verifiable', async () => {
  let headers: http.IncomingHttpHeaders = {};
  handler = (request, response) => {
    headers = request.headers;
    response.writeHead(200).end();
  };
  await sendAttempt(`${base}/hooks`, MESSAGE, [SECRET, OLD_SECRET], POLICY);
  const signed = {
    'webhook-id': String(headers['webhook-id']),
    'webhook-timestamp': String(headers['webhook-timestamp']),
    'webhook-signature': String(headers['webhook-signature']),
  };
  expect(signed['webhook-id']).toBe(MESSAGE.id);
  expect(signed['webhook-signature'].split(' ')).toHaveLength(2);
  for (const secret of [SECRET, OLD_SECRET]) expect(new Webhook(secret).verify(MESSAGE.body, signed)).toBeTruthy();
});

test('attempts to one endpoint reuse open connections', async () => {
  handler = (_request, response) => response.writeHead(200).end('ok');
  connections.clear();
  for (let i = 0; i < 20; i++) await sendAttempt(`${base}/hooks`, MESSAGE, [SECRET], POLICY);
  expect(connections.size).toBe(1);
});
