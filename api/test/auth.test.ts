// Sign-in, its throttling, sessions and request-forgery protection (docs/sessions.md).
import { ADDRESS_MAX_FAILURES, FAILURE_WINDOW_MS, PAIR_MAX_FAILURES } from '../src/auth/login-throttle';
import { SERVER_FEATURES } from '@veritas/shared/domain';
import { ADMIN_PASSWORD, ADMIN_USERNAME, PASSWORD, build, signIn, type Answer, type Client } from './support/build';

const OFFICE = ['office1', 'office2', 'office3', 'office4', 'office5'];

const api = build({
  groups: [{ code: 'HUB1', organization: 'hub' }],
  users: [
    { username: 'exec1', role: 'executive', group: 'HUB1' },
    { username: 'exec2', role: 'executive', group: 'HUB1' },
    { username: 'exec3', role: 'executive', group: 'HUB1' },
    { username: 'wm1', role: 'operators', group: 'HUB1' },
    { username: 'sleeper', role: 'executive', group: 'HUB1' },
    { username: 'typist', role: 'executive', group: 'HUB1' },
    { username: 'unlucky', role: 'executive', group: 'HUB1' },
    { username: 'patient', role: 'executive', group: 'HUB1' },
    { username: 'unhashable', role: 'executive', group: 'HUB1' },
    ...OFFICE.map((username) => ({ username, role: 'executive' as const, group: 'HUB1' })),
  ],
});

beforeAll(async () => {
  // A stored hash that scrypt refuses (N must be a power of 2): checking this user's password
  // answers 500, so a 429 for it shows that the password was not checked.
  await api.db.kysely
    .updateTable('users')
    .set({ password_hash: 'scrypt$3$8$1$c2FsdA==$a2V5' })
    .where('username', '=', 'unhashable')
    .execute();
});

const userId = async (username: string): Promise<number> => {
  const users = await api.superAdmin.get('user/get_users/');
  return users.body.find((u: { username: string }) => u.username === username).id;
};

describe('login', () => {
  test('valid credentials answer 200 {is_webview:true, role} and set httpOnly access and refresh cookies and a new XSRF cookie', async () => {
    const client = api.client();
    await client.get('user/is_LoggedIn/');
    const before = client.cookie('XSRF-TOKEN');
    const answer = await client.login('exec1');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ is_webview: true, role: 'executive' });
    const access = client.cookies.get('veritas_access');
    const refresh = client.cookies.get('veritas_refresh');
    // The whole origin: the page document and /remotes.json compose the console for the user it names.
    expect(access?.path).toBe('/');
    expect(access?.attributes).toMatch(/HttpOnly/);
    expect(access?.attributes).toMatch(/Max-Age=900/);
    expect(refresh?.path).toBe('/veritas/user/');
    expect(refresh?.attributes).toMatch(/HttpOnly/);
    expect(refresh?.attributes).toMatch(/Max-Age=604800/);
    expect(client.cookie('XSRF-TOKEN')).toBeDefined();
    expect(client.cookie('XSRF-TOKEN')).not.toBe(before);
  });

  test('wrong password answers 401 "Invalid username or password" (res and detail)', async () => {
    const answer = await api.client().login('exec1', 'wrong-password');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ res: 'Invalid username or password', detail: 'Invalid username or password' });
  });

  test('unknown username answers 401 like a wrong password', async () => {
    const answer = await api.client().login('nobody-here', 'whatever');
    expect(answer.status).toBe(401);
    expect(answer.body.detail).toBe('Invalid username or password');
  });

  test('missing username or password answers 400 naming the field', async () => {
    const client = api.client();
    await client.get('user/is_LoggedIn/');
    const noUser = await client.post('user/login/', { username: '', password: 'x' });
    expect(noUser.status).toBe(400);
    expect(noUser.body).toMatchObject({ field: 'username', detail: expect.any(String) });
    const noPassword = await client.post('user/login/', { username: 'exec1' });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body).toMatchObject({ field: 'password', detail: expect.any(String) });
  });

  test('role operators is refused web login: 200 {is_webview:false, role:"operators"} and no session cookie', async () => {
    const client = api.client();
    await client.get('user/is_LoggedIn/');
    const answer = await client.post('user/login/', { username: 'wm1', password: PASSWORD });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ is_webview: false, role: 'operators' });
    expect(answer.setCookies.some((c) => c.startsWith('veritas_access=') || c.startsWith('veritas_refresh='))).toBe(
      false,
    );
    expect((await client.get('user/is_LoggedIn/')).status).toBe(401);
  });

  test('a deactivated user gets 403 {res:"Account is deactivated"} and no session', async () => {
    const id = await userId('sleeper');
    expect((await api.superAdmin.post('user/deactivate_user/', { user_id: id })).status).toBe(200);
    const client = api.client();
    const answer = await client.login('sleeper');
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ res: 'Account is deactivated', detail: 'Account is deactivated' });
    expect(client.cookie('veritas_access')).toBeUndefined();
  });
});

describe('XSRF', () => {
  test('a GET sets a readable (not httpOnly) XSRF-TOKEN cookie with path / when missing, and not again once present', async () => {
    const client = api.client();
    const first = await client.get('user/is_LoggedIn/');
    const line = first.setCookies.find((c) => c.startsWith('XSRF-TOKEN='));
    expect(line).toMatch(/Path=\//);
    expect(line).not.toMatch(/HttpOnly/i);
    const second = await client.get('user/is_LoggedIn/');
    expect(second.setCookies.some((c) => c.startsWith('XSRF-TOKEN='))).toBe(false);
  });

  test.each([
    'user/login/',
    'user/refresh/',
    'user/logout/',
    'user/create/',
    'user/create_group/',
    'user/deactivate_user/',
  ])('POST %s without the X-XSRF-TOKEN header is 403 with detail', async (path) => {
    const client = await api.signIn('exec2');
    const answer = await client.post(path, { username: 'exec2', password: PASSWORD }, { xsrf: false });
    expect(answer.status).toBe(403);
    expect(answer.body.detail).toMatch(/CSRF/);
  });

  test('POST with a header that does not match the XSRF cookie is 403', async () => {
    const client = await api.signIn('exec2');
    const answer = await client.post('user/logout/', {}, { xsrf: 'not-the-cookie' });
    expect(answer.status).toBe(403);
    expect((await client.get('user/is_LoggedIn/')).status).toBe(200);
  });

  test('POST without the XSRF cookie is 403 even with a header', async () => {
    const client = api.client();
    const answer = await client.post('user/login/', { username: 'exec2', password: PASSWORD }, { xsrf: 'made-up' });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ res: expect.stringMatching(/CSRF/), detail: expect.stringMatching(/CSRF/) });
  });
});

describe('is_LoggedIn', () => {
  test('answers 200 with a valid access cookie and 401 with none or a forged one', async () => {
    const client = await api.signIn('exec2');
    expect((await client.get('user/is_LoggedIn/')).status).toBe(200);
    const anonymous = await api.client().get('user/is_LoggedIn/');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.detail).toEqual(expect.any(String));
    const forged = api.client();
    const answer = await forged.get('user/is_LoggedIn/', { headers: { cookie: 'veritas_access=forged' } });
    expect(answer.status).toBe(401);
  });
});

test("a call's 401 without a session carries detail and the field its screen reads (docs/errors.md#server-error-bodies)", async () => {
  const anonymous = api.client();
  await anonymous.get('user/is_LoggedIn/');
  const detail = 'Authentication credentials were not provided or have expired.';
  const answers: [Promise<{ status: number; body: unknown }>, Record<string, string>][] = [
    [anonymous.get('api/get_status/'), { detail }],
    [anonymous.post('user/deactivate_user/', { user_id: 1 }), { detail, error: detail }],
    [
      anonymous.post('api/generate_csv/', { start_date: '2026-01-01', end_date: '2026-01-02' }),
      { detail, error: detail },
    ],
    [anonymous.get('api/whitelable/'), { detail, message: detail }],
  ];
  for (const [answer, body] of answers) expect(await answer).toMatchObject({ status: 401, body });
  expect((await anonymous.get('api/get_status/')).body).toEqual({ detail });
});

describe('refresh', () => {
  test('rotates both session cookies; the new access cookie works', async () => {
    const client = await api.signIn('exec3');
    const oldAccess = client.cookie('veritas_access');
    const oldRefresh = client.cookie('veritas_refresh');
    const answer = await client.post('user/refresh/');
    expect(answer.status).toBe(200);
    expect(client.cookie('veritas_access')).not.toBe(oldAccess);
    expect(client.cookie('veritas_refresh')).not.toBe(oldRefresh);
    expect((await client.get('user/is_LoggedIn/')).status).toBe(200);
  });

  test('reusing a rotated refresh token revokes the whole family: 401, and the newest tokens stop working', async () => {
    const client = await api.signIn('exec3');
    const stolen = client.cookie('veritas_refresh')!;
    expect((await client.post('user/refresh/')).status).toBe(200);

    const attacker = api.client();
    await attacker.get('user/is_LoggedIn/');
    const replay = await attacker.request('POST', 'user/refresh/', {
      headers: { cookie: `veritas_refresh=${stolen}; XSRF-TOKEN=t`, 'x-xsrf-token': 't' },
    });
    expect(replay.status).toBe(401);

    expect((await client.get('user/is_LoggedIn/')).status).toBe(401);
    expect((await client.post('user/refresh/')).status).toBe(401);
  });

  test('without a refresh cookie answers 401', async () => {
    const client = api.client();
    await client.get('user/is_LoggedIn/');
    const answer = await client.post('user/refresh/');
    expect(answer.status).toBe(401);
    expect(answer.body.detail).toEqual(expect.any(String));
  });

  test('other sessions of the same user are not affected by one family being revoked', async () => {
    const first = await api.signIn('exec3');
    const second = await api.signIn('exec3');
    expect((await first.post('user/logout/')).status).toBe(200);
    expect((await second.get('user/is_LoggedIn/')).status).toBe(200);
  });
});

describe('logout', () => {
  test('revokes the session: the old access cookie and refresh token are refused afterwards, and cookies are cleared', async () => {
    const client = await api.signIn('exec2');
    const access = client.cookie('veritas_access')!;
    const refresh = client.cookie('veritas_refresh')!;
    const answer = await client.post('user/logout/');
    expect(answer.status).toBe(200);
    expect(client.cookie('veritas_access')).toBeUndefined();
    expect(client.cookie('veritas_refresh')).toBeUndefined();

    const replay = api.client();
    expect((await replay.get('user/is_LoggedIn/', { headers: { cookie: `veritas_access=${access}` } })).status).toBe(
      401,
    );
    const refreshed = await replay.request('POST', 'user/refresh/', {
      headers: { cookie: `veritas_refresh=${refresh}; XSRF-TOKEN=t`, 'x-xsrf-token': 't' },
    });
    expect(refreshed.status).toBe(401);
  });
});

describe('server features (docs/architecture.md#server-features)', () => {
  test("get_role's answer names the calls offered beyond the spec: all of them by default", async () => {
    const client = await api.signIn('exec1');
    expect((await client.get('user/get_role/')).body.features).toEqual([...SERVER_FEATURES]);
  });

  test('a server started with specOnly names none, so the console reads get_status', async () => {
    const server = await api.start({ specOnly: true });
    try {
      const client = await signIn(server.url, 'exec1');
      const answer = await client.get('user/get_role/');
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ user: 'exec1', role: 'executive', features: [] });
    } finally {
      await server.close();
    }
  });
});

describe('deactivation', () => {
  test("a deactivated user's open session stops working immediately, refresh fails, and activation lets them log in again", async () => {
    const client = await api.signIn('exec1');
    expect((await client.get('user/get_role/')).status).toBe(200);
    const id = await userId('exec1');
    expect((await api.superAdmin.post('user/deactivate_user/', { user_id: id })).status).toBe(200);
    expect((await client.get('user/get_role/')).status).toBe(401);
    expect((await client.post('user/refresh/')).status).toBe(401);
    expect((await api.client().login('exec1')).status).toBe(403);

    expect((await api.superAdmin.post('user/activate_user/', { user_id: id })).status).toBe(200);
    expect((await api.client().login('exec1')).status).toBe(200);
  });
});

describe('sign-in throttling', () => {
  // Every test signs in from loopback addresses of its own (127.0.0.2, 127.0.0.3, …); the tests
  // above use 127.0.0.1.
  let lastHost = 1;
  const newAddress = () => `127.0.0.${++lastHost}`;
  const clientFrom = (localAddress: string) => api.client({ localAddress });
  const WINDOW_SECONDS = FAILURE_WINDOW_MS / 1000;
  const PAIR_REFUSAL = 'Too many failed sign-in attempts for this username from your address. Try again in 15 minutes.';
  const ADDRESS_REFUSAL = 'Too many failed sign-in attempts from your address. Try again in 15 minutes.';

  const appLogin = (client: Client, username: string, password = PASSWORD) =>
    client.post('app/login/', { username, password }, { xsrf: false });

  async function fail(client: Client, username: string, times: number) {
    for (let attempt = 0; attempt < times; attempt++) {
      expect((await client.login(username, `wrong-${attempt}`)).status).toBe(401);
    }
  }

  function expectRefused(answer: Answer, message: string, maxSeconds = WINDOW_SECONDS) {
    expect(answer.status).toBe(429);
    expect(answer.body).toEqual({ res: message, detail: message });
    const retryAfter = Number(answer.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(maxSeconds - 60);
    expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  }

  /** Moves the address's failures back in time, as if `ms` had passed. */
  async function age(address: string, ms: number) {
    const rows = await api.db.kysely
      .selectFrom('login_failures')
      .select(['id', 'failed_at'])
      .where('client_address', '=', address)
      .execute();
    for (const { id, failed_at } of rows) {
      await api.db.kysely
        .updateTable('login_failures')
        .set({ failed_at: new Date(Date.parse(failed_at) - ms).toISOString() })
        .where('id', '=', id)
        .execute();
    }
  }

  test("the rightful user signs in from another address while the attacker's address is throttled for that user", async () => {
    const attacker = clientFrom(newAddress());
    await fail(attacker, ADMIN_USERNAME, PAIR_MAX_FAILURES);
    expectRefused(await attacker.login(ADMIN_USERNAME, ADMIN_PASSWORD), PAIR_REFUSAL);

    expect((await clientFrom(newAddress()).login(ADMIN_USERNAME, ADMIN_PASSWORD)).body).toEqual({
      is_webview: true,
      role: 'super_admin',
    });
    // The attacker's address is refused for that user only.
    expect((await attacker.login('exec2')).status).toBe(200);
    expect((await attacker.login(ADMIN_USERNAME, ADMIN_PASSWORD)).status).toBe(429);
  });

  test(`pair rule: ${PAIR_MAX_FAILURES} failures of one username from one address within 15 minutes refuse that pair, even with the right password; a successful sign-in clears its failures`, async () => {
    const client = clientFrom(newAddress());
    await fail(client, 'typist', PAIR_MAX_FAILURES - 1);
    expect((await client.login('typist')).status).toBe(200);
    // The typos the user corrected no longer count.
    await fail(client, 'typist', PAIR_MAX_FAILURES);
    expectRefused(await client.login('typist'), PAIR_REFUSAL);
    expectRefused(await client.login('typist', 'another-guess'), PAIR_REFUSAL);
  });

  test(`address rule: ${ADDRESS_MAX_FAILURES} failures from one address within 15 minutes, over any usernames, refuse every sign-in from it without checking the password; successful sign-ins neither count nor clear them`, async () => {
    const address = newAddress();
    const sprayer = clientFrom(address);
    await sprayer.get('user/is_LoggedIn/');
    const usernames = Array.from({ length: ADDRESS_MAX_FAILURES }, (_, i) => ['exec1', 'exec2'][i] ?? `sprayed-${i}`);
    const guess = (username: string) => sprayer.post('user/login/', { username, password: 'Summer-2025!' });
    expect((await Promise.all(usernames.slice(0, 25).map(guess))).map((answer) => answer.status)).toEqual(
      Array(25).fill(401),
    );
    expect((await sprayer.login('exec3')).status).toBe(200);
    expect((await Promise.all(usernames.slice(25).map(guess))).map((answer) => answer.status)).toEqual(
      Array(usernames.length - 25).fill(401),
    );

    expectRefused(await sprayer.login('patient'), ADDRESS_REFUSAL);
    expectRefused(await appLogin(sprayer, 'wm1'), ADDRESS_REFUSAL);
    expectRefused(await sprayer.login('unhashable'), ADDRESS_REFUSAL);
    // From another address the same calls go on to check the password.
    const other = clientFrom(newAddress());
    expect((await other.login('patient')).status).toBe(200);
    expect((await other.login('unhashable')).status).toBe(500);
  });

  test('failures age out: older than 15 minutes they count for neither rule, and they are deleted', async () => {
    const address = newAddress();
    const client = clientFrom(address);
    await fail(client, 'patient', PAIR_MAX_FAILURES);
    expectRefused(await client.login('patient'), PAIR_REFUSAL);
    await age(address, 14 * 60_000);
    expectRefused(
      await client.login('patient'),
      'Too many failed sign-in attempts for this username from your address. Try again in 1 minute.',
      60,
    );
    await age(address, 60_000);
    expect((await client.login('patient')).status).toBe(200);

    // The address rule, over failures stored 15 minutes ago, then 14 minutes ago.
    const sprayedAddress = newAddress();
    const sprayed = clientFrom(sprayedAddress);
    const store = (ago: number) =>
      api.db.kysely
        .insertInto('login_failures')
        .values(
          Array.from({ length: ADDRESS_MAX_FAILURES }, (_, i) => ({
            client_address: sprayedAddress,
            username: `old-${i}`,
            failed_at: new Date(Date.now() - ago).toISOString(),
          })),
        )
        .execute();
    await store(FAILURE_WINDOW_MS + 1000);
    expect((await sprayed.login('patient')).status).toBe(200);
    await store(14 * 60_000);
    expectRefused(
      await sprayed.login('patient'),
      'Too many failed sign-in attempts from your address. Try again in 1 minute.',
      60,
    );

    // The next failure, from anywhere, deletes every failure older than the window.
    const olderThanWindow = () =>
      api.db.kysely
        .selectFrom('login_failures')
        .select('client_address')
        .where('failed_at', '<=', new Date(Date.now() - FAILURE_WINDOW_MS).toISOString())
        .execute();
    expect((await olderThanWindow()).length).toBeGreaterThanOrEqual(ADDRESS_MAX_FAILURES);
    await fail(clientFrom(newAddress()), 'nobody-at-all', 1);
    expect(await olderThanWindow()).toEqual([]);
  });

  test("the app's app/login/ obeys the same rules, counting failures together with user/login/", async () => {
    const client = clientFrom(newAddress());
    await fail(client, 'wm1', 3);
    for (const password of ['wrong-app-1', 'wrong-app-2'])
      expect((await appLogin(client, 'wm1', password)).status).toBe(401);
    expectRefused(await appLogin(client, 'wm1'), PAIR_REFUSAL);
    expectRefused(await client.login('wm1'), PAIR_REFUSAL);
    expect((await appLogin(clientFrom(newAddress()), 'wm1')).body).toEqual({
      token: expect.any(String),
      role: 'operators',
      hub_code: 'HUB1',
    });
  });

  test('no username enumeration: a throttled unknown username is answered like a throttled account, with the right password or not', async () => {
    const client = clientFrom(newAddress());
    await fail(client, 'unlucky', PAIR_MAX_FAILURES);
    await fail(client, 'no-such-user', PAIR_MAX_FAILURES);
    const answers = [
      await client.login('unlucky'),
      await client.login('unlucky', 'wrong'),
      await client.login('no-such-user', PASSWORD),
    ];
    for (const answer of answers) expectRefused(answer, PAIR_REFUSAL);
    const retryAfters = answers.map((answer) => Number(answer.headers.get('retry-after')));
    expect(Math.max(...retryAfters) - Math.min(...retryAfters)).toBeLessThanOrEqual(5);
  });

  test('100 successful sign-ins from one address within a minute all pass, and password guessing from it is still stopped', async () => {
    const address = newAddress();
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => clientFrom(address).login(OFFICE[i % OFFICE.length]!)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(100).fill(200));
    expect(Date.now() - started).toBeLessThan(60_000);

    const guesser = clientFrom(address);
    await fail(guesser, 'office1', PAIR_MAX_FAILURES);
    expectRefused(await guesser.login('office1'), PAIR_REFUSAL);
  });

  test(`a burst of parallel guesses for one pair gets at most ${PAIR_MAX_FAILURES} answers 401; the rest, and the right password after them, get 429`, async () => {
    const client = clientFrom(newAddress());
    await client.get('user/is_LoggedIn/');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.post('user/login/', { username: 'exec1', password: `burst-${i}` })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(PAIR_MAX_FAILURES);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    expect((await client.login('exec1')).status).toBe(429);
  });
});
