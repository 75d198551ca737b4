// What is refused before any route's scope has the request (docs/errors.md#server-error-bodies):
// Node's HTTP parser (malformed HTTP, a request line and headers over 16 KiB) and Fastify's router
// (a path whose %-escapes are no UTF-8 text, a path parameter over 100 characters), and what Node
// would answer itself (no Host, an Expect it does not meet). Each answers the documented body,
// `detail` and `error`, with the API's security headers, as a route's refusal.
import net from 'node:net';
import { build } from './support/build';

const api = build();

/** Sends `request` as it is on a socket of its own; the answer's status, headers and body. */
function raw(request: string): Promise<{ status: number; headers: Map<string, string>; body: unknown }> {
  const { hostname, port } = new URL(api.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Map(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) });
    });
  });
}

const API_HEADERS = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

async function refused(path: string) {
  const answer = await fetch(`${api.url}${path}`);
  return { status: answer.status, headers: new Map(answer.headers), body: await answer.json() };
}

function expectApiHeaders(headers: Map<string, string>) {
  for (const [name, value] of Object.entries(API_HEADERS)) expect([name, headers.get(name)]).toEqual([name, value]);
}

test("a path parameter over the router's 100 characters is a 414 with the documented body and headers", async () => {
  const answer = await refused(`/veritas/api/v1/shipments/${'a'.repeat(101)}/`);
  expect(answer.status).toBe(414);
  const message = 'A part of the address is longer than 100 characters.';
  expect(answer.body).toEqual({ detail: message, error: message });
  expectApiHeaders(answer.headers);
});

test('a path whose %-escapes are no UTF-8 text is a 400 with the documented body and headers, in the console too', async () => {
  for (const path of ['/veritas/api/v1/shipments/%E0%A4%A/', '/ListDevices/%FF']) {
    const answer = await refused(path);
    expect([path, answer.status]).toEqual([path, 400]);
    const message = 'The address is not valid: a %-escape in its path is not UTF-8 text.';
    expect(answer.body).toEqual({ detail: message, error: message });
    expectApiHeaders(answer.headers);
  }
});

test('what Node refuses as HTTP answers the documented body and headers', async () => {
  const malformed = await raw('GET /veritas/health/live/ HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
  expect(malformed.status).toBe(400);
  expect(malformed.body).toEqual({ detail: 'The request is not valid HTTP.', error: 'The request is not valid HTTP.' });
  expectApiHeaders(malformed.headers);

  const large = await raw(`GET /veritas/health/live/?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
  expect(large.status).toBe(431);
  expect(large.body).toEqual({
    detail: 'The request line and headers are too large.',
    error: 'The request line and headers are too large.',
  });
  expectApiHeaders(large.headers);
});

test('an HTTP/1.1 request without Host (400) or with an Expect the server does not meet (417) answers the documented body and headers', async () => {
  const noHost = await raw('GET /veritas/user/get_role/ HTTP/1.1\r\n\r\n');
  expect(noHost.status).toBe(400);
  expect(noHost.body).toEqual({ detail: 'The request has no Host header.', error: 'The request has no Host header.' });
  expectApiHeaders(noHost.headers);
  // HTTP/1.0 asks for no Host: answered as any request.
  expect((await raw('GET /veritas/health/live/ HTTP/1.0\r\n\r\n')).status).toBe(200);

  const expectation = await raw('GET /veritas/health/live/ HTTP/1.1\r\nHost: x\r\nExpect: weird\r\n\r\n');
  expect(expectation.status).toBe(417);
  const message = 'The server does not meet the Expect header: only 100-continue is known.';
  expect(expectation.body).toEqual({ detail: message, error: message });
  expectApiHeaders(expectation.headers);
});
