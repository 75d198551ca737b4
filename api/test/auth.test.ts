// Sign-in, sessions and request-forgery protection (CONTRACT.md "Sessions and security").
import { ADMIN_PASSWORD, ADMIN_USERNAME, Client, PASSWORD, freshDatabase, seed, signIn, startServer, type FreshDatabase, type TestServer } from './support/helpers';

let database: FreshDatabase;
let server: TestServer;
let admin: Client;

beforeAll(async () => {
  database = await freshDatabase();
  server = await startServer(database);
  admin = await seed(
    server.url,
    [{ code: 'HUB1', organization: 'hub' }],
    [
      { username: 'exec1', role: 'executive', group: 'HUB1' },
      { username: 'exec2', role: 'executive', group: 'HUB1' },
      { username: 'exec3', role: 'executive', group: 'HUB1' },
      { username: 'wm1', role: 'operators', group: 'HUB1' },
      { username: 'sleeper', role: 'executive', group: 'HUB1' },
      { username: 'locked', role: 'executive', group: 'HUB1' },
    ],
  );
});

afterAll(async () => {
  await server?.close();
  await database?.drop();
});

const userId = async (username: string): Promise<number> => {
  const users = await admin.get('user/get_users/');
  return users.body.find((u: { username: string }) => u.username === username).id;
};

describe('login', () => {
  test('valid credentials answer 200 {is_webview:true, role} and set httpOnly access and refresh cookies and a new XSRF cookie', async () => {
    const client = new Client(server.url);
    await client.get('user/is_LoggedIn/');
    const before = client.cookie('XSRF-TOKEN');
    const answer = await client.login('exec1');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ is_webview: true, role: 'executive' });
    const access = client.cookies.get('veritas_access');
    const refresh = client.cookies.get('veritas_refresh');
    expect(access?.path).toBe('/veritas');
    expect(access?.attributes).toMatch(/HttpOnly/);
    expect(access?.attributes).toMatch(/Max-Age=900/);
    expect(refresh?.path).toBe('/veritas/user/');
    expect(refresh?.attributes).toMatch(/HttpOnly/);
    expect(refresh?.attributes).toMatch(/Max-Age=604800/);
    expect(client.cookie('XSRF-TOKEN')).toBeDefined();
    expect(client.cookie('XSRF-TOKEN')).not.toBe(before);
  });

  test('wrong password answers 401 "Invalid username or password" (res and detail)', async () => {
    const answer = await new Client(server.url).login('exec1', 'wrong-password');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ res: 'Invalid username or password', detail: 'Invalid username or password' });
  });

  test('unknown username answers 401 like a wrong password', async () => {
    const answer = await new Client(server.url).login('nobody-here', 'whatever');
    expect(answer.status).toBe(401);
    expect(answer.body.detail).toBe('Invalid username or password');
  });

  test('missing username or password answers 400 naming the field', async () => {
    const client = new Client(server.url);
    await client.get('user/is_LoggedIn/');
    const noUser = await client.post('user/login/', { username: '', password: 'x' });
    expect(noUser.status).toBe(400);
    expect(noUser.body).toMatchObject({ field: 'username', detail: expect.any(String) });
    const noPassword = await client.post('user/login/', { username: 'exec1' });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body).toMatchObject({ field: 'password', detail: expect.any(String) });
  });

  test('role operators is refused web login: 200 {is_webview:false, role:"operators"} and no session cookie', async () => {
    const client = new Client(server.url);
    await client.get('user/is_LoggedIn/');
    const answer = await client.post('user/login/', { username: 'wm1', password: PASSWORD });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ is_webview: false, role: 'operators' });
    expect(answer.setCookies.some((c) => c.startsWith('veritas_access=') || c.startsWith('veritas_refresh='))).toBe(false);
    expect((await client.get('user/is_LoggedIn/')).status).toBe(401);
  });

  test('a deactivated user gets 403 {res:"Account is deactivated"} and no session', async () => {
    const id = await userId('sleeper');
    expect((await admin.post('user/deactivate_user/', { user_id: id })).status).toBe(200);
    const client = new Client(server.url);
    const answer = await client.login('sleeper');
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ res: 'Account is deactivated', detail: 'Account is deactivated' });
    expect(client.cookie('veritas_access')).toBeUndefined();
  });
});

describe('XSRF', () => {
  test('a GET sets a readable (not httpOnly) XSRF-TOKEN cookie with path / when missing, and not again once present', async () => {
    const client = new Client(server.url);
    const first = await client.get('user/is_LoggedIn/');
    const line = first.setCookies.find((c) => c.startsWith('XSRF-TOKEN='));
    expect(line).toMatch(/Path=\//);
    expect(line).not.toMatch(/HttpOnly/i);
    const second = await client.get('user/is_LoggedIn/');
    expect(second.setCookies.some((c) => c.startsWith('XSRF-TOKEN='))).toBe(false);
  });

  test.each(['user/login/', 'user/refresh/', 'user/logout/', 'user/create/', 'user/create_group/', 'user/deactivate_user/'])(
    'POST %s without the X-XSRF-TOKEN header is 403 with detail',
    async (path) => {
      const client = await signIn(server.url, 'exec2');
      const answer = await client.post(path, { username: 'exec2', password: PASSWORD }, { xsrf: false });
      expect(answer.status).toBe(403);
      expect(answer.body.detail).toMatch(/CSRF/);
    },
  );

  test('POST with a header that does not match the XSRF cookie is 403', async () => {
    const client = await signIn(server.url, 'exec2');
    const answer = await client.post('user/logout/', {}, { xsrf: 'not-the-cookie' });
    expect(answer.status).toBe(403);
    expect((await client.get('user/is_LoggedIn/')).status).toBe(200);
  });

  test('POST without the XSRF cookie is 403 even with a header', async () => {
    const client = new Client(server.url);
    const answer = await client.post('user/login/', { username: 'exec2', password: PASSWORD }, { xsrf: 'made-up' });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ res: expect.stringMatching(/CSRF/), detail: expect.stringMatching(/CSRF/) });
  });
});

describe('is_LoggedIn', () => {
  test('answers 200 with a valid access cookie and 401 with none or a forged one', async () => {
    const client = await signIn(server.url, 'exec2');
    expect((await client.get('user/is_LoggedIn/')).status).toBe(200);
    const anonymous = await new Client(server.url).get('user/is_LoggedIn/');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.detail).toEqual(expect.any(String));
    const forged = new Client(server.url);
    const answer = await forged.get('user/is_LoggedIn/', { headers: { cookie: 'veritas_access=forged' } });
    expect(answer.status).toBe(401);
  });
});

describe('refresh', () => {
  test('rotates both session cookies; the new access cookie works', async () => {
    const client = await signIn(server.url, 'exec3');
    const oldAccess = client.cookie('veritas_access');
    const oldRefresh = client.cookie('veritas_refresh');
    const answer = await client.post('user/refresh/');
    expect(answer.status).toBe(200);
    expect(client.cookie('veritas_access')).not.toBe(oldAccess);
    expect(client.cookie('veritas_refresh')).not.toBe(oldRefresh);
    expect((await client.get('user/is_LoggedIn/')).status).toBe(200);
  });

  test('reusing a rotated refresh token revokes the whole family: 401, and the newest tokens stop working', async () => {
    const client = await signIn(server.url, 'exec3');
    const stolen = client.cookie('veritas_refresh')!;
    expect((await client.post('user/refresh/')).status).toBe(200);

    const attacker = new Client(server.url);
    await attacker.get('user/is_LoggedIn/');
    const replay = await attacker.request('POST', 'user/refresh/', { headers: { cookie: `veritas_refresh=${stolen}; XSRF-TOKEN=t`, 'x-xsrf-token': 't' } });
    expect(replay.status).toBe(401);

    expect((await client.get('user/is_LoggedIn/')).status).toBe(401);
    expect((await client.post('user/refresh/')).status).toBe(401);
  });

  test('without a refresh cookie answers 401', async () => {
    const client = new Client(server.url);
    await client.get('user/is_LoggedIn/');
    const answer = await client.post('user/refresh/');
    expect(answer.status).toBe(401);
    expect(answer.body.detail).toEqual(expect.any(String));
  });

  test('other sessions of the same user are not affected by one family being revoked', async () => {
    const first = await signIn(server.url, 'exec3');
    const second = await signIn(server.url, 'exec3');
    expect((await first.post('user/logout/')).status).toBe(200);
    expect((await second.get('user/is_LoggedIn/')).status).toBe(200);
  });
});

describe('logout', () => {
  test('revokes the session: the old access cookie and refresh token are refused afterwards, and cookies are cleared', async () => {
    const client = await signIn(server.url, 'exec2');
    const access = client.cookie('veritas_access')!;
    const refresh = client.cookie('veritas_refresh')!;
    const answer = await client.post('user/logout/');
    expect(answer.status).toBe(200);
    expect(client.cookie('veritas_access')).toBeUndefined();
    expect(client.cookie('veritas_refresh')).toBeUndefined();

    const replay = new Client(server.url);
    expect((await replay.get('user/is_LoggedIn/', { headers: { cookie: `veritas_access=${access}` } })).status).toBe(401);
    const refreshed = await replay.request('POST', 'user/refresh/', { headers: { cookie: `veritas_refresh=${refresh}; XSRF-TOKEN=t`, 'x-xsrf-token': 't' } });
    expect(refreshed.status).toBe(401);
  });
});

describe('deactivation', () => {
  test("a deactivated user's open session stops working immediately, refresh fails, and activation lets them log in again", async () => {
    const client = await signIn(server.url, 'exec1');
    expect((await client.get('user/get_role/')).status).toBe(200);
    const id = await userId('exec1');
    expect((await admin.post('user/deactivate_user/', { user_id: id })).status).toBe(200);
    expect((await client.get('user/get_role/')).status).toBe(401);
    expect((await client.post('user/refresh/')).status).toBe(401);
    expect((await new Client(server.url).login('exec1')).status).toBe(403);

    expect((await admin.post('user/activate_user/', { user_id: id })).status).toBe(200);
    expect((await new Client(server.url).login('exec1')).status).toBe(200);
  });
});

describe('login rate limits', () => {
  test('per username: 10 failed attempts in 15 minutes answer 429 with detail, even with the right password', async () => {
    const client = new Client(server.url);
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await client.login('locked', 'wrong')).status).toBe(401);
    }
    const answer = await client.login('locked', PASSWORD);
    expect(answer.status).toBe(429);
    expect(answer.body).toMatchObject({ res: expect.stringMatching(/Too many/), detail: expect.stringMatching(/Too many/) });
    // Other accounts are unaffected.
    expect((await new Client(server.url).login(ADMIN_USERNAME, ADMIN_PASSWORD)).status).toBe(200);
  });

  test('per client address: more login calls per minute than the limit answer 429 with detail', async () => {
    const limited = await startServer(database, { loginRateLimitPerMinute: 3 });
    try {
      const client = new Client(limited.url);
      await client.get('user/is_LoggedIn/');
      for (let attempt = 0; attempt < 3; attempt++) {
        expect((await client.post('user/login/', { username: 'exec2', password: PASSWORD })).status).toBe(200);
      }
      const answer = await client.post('user/login/', { username: 'exec2', password: PASSWORD });
      expect(answer.status).toBe(429);
      expect(answer.body).toMatchObject({ res: expect.stringMatching(/Too many login attempts/), detail: expect.stringMatching(/Too many login attempts/) });
      // Only login is limited.
      expect((await client.get('user/is_LoggedIn/')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
