// VERITAS_TRUST_PROXY (ServerOptions.trustProxy): behind a reverse proxy every request comes from
// the proxy's address, so the client's address (what sign-in throttling counts by) is read from
// X-Forwarded-For, but only when the proxy is trusted; otherwise the header is anyone's to forge.
import { PAIR_MAX_FAILURES } from '../src/auth/login-throttle';
import { Client, PASSWORD, build } from './support/build';

// The file's main server trusts a proxy on 127.0.0.1; a second one, started below, trusts none.
const api = build({
  groups: [{ code: 'HUB1', organization: 'hub' }],
  users: [
    { username: 'exec1', role: 'executive', group: 'HUB1' },
    { username: 'exec2', role: 'executive', group: 'HUB1' },
  ],
  server: { trustProxy: '127.0.0.1' },
});

/** A sign-in as the console makes it, the proxy having added X-Forwarded-For. */
async function loginVia(client: Client, forwardedFor: string, username: string, password: string) {
  if (!client.cookie('XSRF-TOKEN')) await client.get('user/is_LoggedIn/');
  return client.request('POST', 'user/login/', {
    body: { username, password },
    headers: { 'x-forwarded-for': forwardedFor },
  });
}

test('with a trusted proxy, two X-Forwarded-For addresses are throttled separately', async () => {
  const client = api.client();
  for (let i = 0; i < PAIR_MAX_FAILURES; i++)
    expect((await loginVia(client, '203.0.113.1', 'exec1', `wrong-${i}`)).status).toBe(401);
  expect((await loginVia(client, '203.0.113.1', 'exec1', PASSWORD)).status).toBe(429);
  expect((await loginVia(api.client(), '203.0.113.2', 'exec1', PASSWORD)).status).toBe(200);
});

test('without a trusted proxy, X-Forwarded-For is ignored: the socket address is throttled', async () => {
  const untrusting = await api.start({ trustProxy: false });
  // From a loopback address of its own, so no other test's failures count here.
  const client = new Client(untrusting.url, { localAddress: '127.0.0.66' });
  for (let i = 0; i < PAIR_MAX_FAILURES; i++)
    expect((await loginVia(client, `203.0.113.${10 + i}`, 'exec2', `wrong-${i}`)).status).toBe(401);
  expect((await loginVia(client, '203.0.113.99', 'exec2', PASSWORD)).status).toBe(429);
});
