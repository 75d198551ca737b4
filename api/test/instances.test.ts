// Two API instances on one database (docs/operations.md#many-instances): what a browser or an
// upload carries from one instance to the next lives in the database, not in a process — the
// session and its refresh rotation, an upload's chunks, sign-in throttling.
import crypto from 'node:crypto';
import { PAIR_MAX_FAILURES } from '../src/auth/login-throttle';
import { ADMIN_USERNAME, Client, PASSWORD, build, uploadCsv, type TestServer } from './support/build';

const api = build({
  groups: [{ code: 'HUB1', organization: 'hub' }],
  users: [
    { username: 'admin1', role: 'admin' },
    { username: 'exec1', role: 'executive', group: 'HUB1' },
  ],
});

let second: TestServer;
beforeAll(async () => {
  second = await api.start();
});

/** A client of `server` sharing `client`'s cookie jar: the same browser, its next request routed elsewhere. */
function through(server: { url: string }, client: Client, options: { localAddress?: string } = {}): Client {
  return Object.assign(new Client(server.url, options), { cookies: client.cookies });
}

test('a session opened through one instance is served by the other, and signing out through it ends the session on both', async () => {
  const onFirst = await api.signIn('admin1');
  const onSecond = through(second, onFirst);
  expect((await onSecond.get('user/get_role/')).body).toMatchObject({ role: 'admin' });
  expect((await onSecond.post('user/logout/')).status).toBe(200);
  expect((await onFirst.get('user/is_LoggedIn/')).status).toBe(401);
});

test('refresh rotation holds across instances: refreshed through one, the replayed old token is refused by the other and revokes the family', async () => {
  const onFirst = await api.signIn('exec1');
  const stolen = onFirst.cookie('veritas_refresh')!;
  expect((await through(second, onFirst).post('user/refresh/')).status).toBe(200);
  expect((await onFirst.get('user/get_role/')).status).toBe(200);

  const attacker = api.client();
  await attacker.get('user/is_LoggedIn/');
  const replay = await attacker.request('POST', 'user/refresh/', {
    headers: { cookie: `veritas_refresh=${stolen}; XSRF-TOKEN=t`, 'x-xsrf-token': 't' },
  });
  expect(replay.status).toBe(401);
  expect((await through(second, onFirst).get('user/is_LoggedIn/')).status).toBe(401);
});

test("an upload's chunks sent to alternating instances are assembled by the one that gets the last, with exact counts", async () => {
  const admin = await api.signIn('admin1');
  const rows = Array.from(
    { length: 3000 },
    (_, i) =>
      `ALT-${i}-${crypto.randomBytes(2).toString('hex')},HUB1,mobile,Samsung,Galaxy S21,false,,,2025-03-01T10:00:00Z`,
  );
  const content = `tracking_id,hub_code,device_type,device_brand,device_model_name,is_blindpick,blind_brand,blind_model,created_date\n${rows.join('\n')}\n`;
  // Chunk i goes to the first instance when i is even, to the second when odd.
  const alternating = Object.assign(new Client(api.url), { cookies: admin.cookies });
  const toSecond = through(second, admin);
  let sent = 0;
  const postMultipart = alternating.postMultipart.bind(alternating);
  alternating.postMultipart = (...args) =>
    sent++ % 2 === 0 ? postMultipart(...args) : toSecond.postMultipart(...args);
  const answers = await uploadCsv(alternating, 'alternating.csv', content, 16 * 1024);
  expect(answers.length).toBeGreaterThan(4);
  expect(sent).toBe(answers.length);
  expect(answers.slice(0, -1).every((answer) => answer.status === 200)).toBe(true);
  const result = answers[answers.length - 1]!;
  expect(result.status).toBe(200);
  expect(result.body).toMatchObject({ processed: 3000, skipped: 0, duplicates: [], errors: [] });
  const count = await api.db.kysely
    .selectFrom('device_records')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('tracking_id', 'like', 'ALT-%')
    .executeTakeFirstOrThrow();
  expect(Number(count.count)).toBe(3000);
});

test('sign-in throttling counts failures made through either instance', async () => {
  const address = '127.0.0.77';
  const onFirst = api.client({ localAddress: address });
  for (let i = 0; i < PAIR_MAX_FAILURES; i++) {
    const client = i % 2 === 0 ? onFirst : through(second, onFirst, { localAddress: address });
    expect((await client.login('exec1', `wrong-${i}`)).status).toBe(401);
  }
  expect((await through(second, onFirst, { localAddress: address }).login('exec1', PASSWORD)).status).toBe(429);
  expect((await onFirst.login('exec1', PASSWORD)).status).toBe(429);
  // Another user from that address is not refused.
  expect((await onFirst.login(ADMIN_USERNAME, 'Root-Admin-Pass-1')).status).toBe(200);
});
