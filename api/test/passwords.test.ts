// Passwords: how they are stored, the password rule on create, change and reset, and the two
// calls that change them (user/change_password/, user/reset_password/) with their rights and the
// sessions they end.
import { OWN_ACCOUNT_REFUSAL, roleNotManagedRefusal } from '@veritas/shared/domain';
import { PAIR_MAX_FAILURES } from '../src/auth/login-throttle';
import { hashPassword, verifyPassword } from '../src/auth/password-hashing';
import { ADMIN_USERNAME, PASSWORD, build } from './support/build';

test('passwords are stored as salted scrypt hashes: the same password hashes differently and verifies', async () => {
  const a = await hashPassword('Veritas@123');
  const b = await hashPassword('Veritas@123');
  expect(a).toMatch(/^scrypt\$\d+\$\d+\$\d+\$/);
  expect(a).not.toBe(b);
  expect(a).not.toContain('Veritas@123');
  expect(await verifyPassword('Veritas@123', a)).toBe(true);
  expect(await verifyPassword('Veritas@124', a)).toBe(false);
  expect(await verifyPassword('Veritas@123', 'garbage')).toBe(false);
});

const ROLES = ['operators', 'executive', 'incharge', 'central_ops', 'admin', 'super_admin'] as const;
/** Whom each role may deactivate (docs/screens.md#server-side-rights): reset follows the same rule. */
const MANAGES: Record<string, readonly string[]> = {
  executive: [],
  incharge: ['executive', 'operators'],
  central_ops: ['incharge', 'executive'],
  admin: ['operators', 'executive', 'incharge', 'central_ops'],
  super_admin: ['operators', 'executive', 'incharge', 'central_ops'],
};
const ids = new Map<string, number>();

/** Each part of the rule, with a password breaking it for the user `username` and the message. */
const RULE_CASES = (username: string) => [
  ['shorter than 8 characters', 'Kx7#qLm', 'Password must be at least 8 characters'],
  ['longer than 128 characters', 'k'.repeat(129), 'Password must be at most 128 characters'],
  ['equal to the username (any case)', username.toUpperCase(), 'Password must not be the username'],
  ['on the list of common passwords', 'Password123', 'This password is too common: choose one that is harder to guess'],
];

const api = build({
  groups: [{ code: 'HUB1', organization: 'hub' }],
  users: [
    // Actors (signed in below) and one target per role for the rights matrix.
    { username: 'a_central_ops', role: 'central_ops' },
    { username: 'a_incharge', role: 'incharge', group: 'HUB1' },
    { username: 'a_executive', role: 'executive', group: 'HUB1' },
    ...(['operators', 'executive', 'incharge', 'central_ops'] as const).map((role) => ({
      username: `t_${role}`,
      role,
      group: role === 'central_ops' ? undefined : 'HUB1',
    })),
    // Users whose passwords and sessions the flows below change.
    { username: 'pw_changer', role: 'executive', group: 'HUB1' },
    { username: 'guesser', role: 'executive', group: 'HUB1' },
    { username: 'reset_me', role: 'executive', group: 'HUB1' },
    { username: 'locked_out', role: 'executive', group: 'HUB1' },
    { username: 'a_admin', role: 'admin' },
    { username: 't_admin', role: 'admin' },
    { username: 't_super_admin', role: 'super_admin' },
  ],
  signIn: {
    super_admin: ADMIN_USERNAME,
    admin: 'a_admin',
    central_ops: 'a_central_ops',
    incharge: 'a_incharge',
    executive: 'a_executive',
  },
});
const { as: actors } = api;

beforeAll(async () => {
  for (const user of (await api.superAdmin.get('user/get_users/')).body) ids.set(user.username, user.id);
});

const id = (username: string) => ids.get(username)!;

/** A session of the mobile app: its bearer token. */
async function appToken(username: string, password = PASSWORD): Promise<string> {
  const response = await fetch(`${api.url}/veritas/app/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** Whether the app still takes the token: a valid one gets past authentication to the body check (400). */
async function appTokenWorks(token: string): Promise<boolean> {
  const response = await fetch(`${api.url}/veritas/app/scan/check/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: '{}',
  });
  expect([400, 401]).toContain(response.status);
  return response.status === 400;
}

const loginStatus = async (username: string, password: string) => (await api.client().login(username, password)).status;

describe('the password rule on user/create/', () => {
  test.each(RULE_CASES('new_user'))(
    'a password %s is refused: 400 {detail, field: "password"}',
    async (_name, password, message) => {
      const answer = await api.superAdmin.post('user/create/', {
        username: 'new_user',
        email: 'new_user@example.com',
        password,
        role: 'central_ops',
        group: '',
        organization: '',
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ field: 'password', detail: message });
    },
  );
});

describe('user/change_password/', () => {
  test('answers 401 without a session', async () => {
    const client = api.client();
    await client.get('user/is_LoggedIn/');
    const answer = await client.post('user/change_password/', {
      current_password: PASSWORD,
      new_password: 'Fresh-Pass-42',
    });
    expect(answer.status).toBe(401);
  });

  test('missing passwords answer 400 naming the field', async () => {
    const client = await api.signIn('pw_changer');
    const noCurrent = await client.post('user/change_password/', { new_password: 'Fresh-Pass-42' });
    expect(noCurrent.status).toBe(400);
    expect(noCurrent.body).toMatchObject({
      field: 'current_password',
      error: expect.any(String),
      detail: expect.any(String),
    });
    const noNew = await client.post('user/change_password/', { current_password: PASSWORD });
    expect(noNew.status).toBe(400);
    expect(noNew.body).toMatchObject({ field: 'new_password', error: expect.any(String), detail: expect.any(String) });
  });

  test.each(RULE_CASES('pw_changer'))(
    'a new password %s is refused: 400 {error, detail, field: "new_password"}',
    async (_name, password, message) => {
      const client = await api.signIn('pw_changer');
      const answer = await client.post('user/change_password/', { current_password: PASSWORD, new_password: password });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ field: 'new_password', error: message, detail: message });
      expect(await loginStatus('pw_changer', PASSWORD)).toBe(200);
    },
  );

  test('a wrong current password answers 400 naming current_password and changes nothing', async () => {
    const client = await api.signIn('pw_changer');
    const answer = await client.post('user/change_password/', {
      current_password: 'Not-The-Password-1',
      new_password: 'Fresh-Pass-42',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ field: 'current_password', error: 'The current password is not correct.' });
    expect(await loginStatus('pw_changer', PASSWORD)).toBe(200);
  });

  test('wrong current passwords are failed sign-ins from this address: after the pair limit, both the change and the login from it answer 429', async () => {
    const client = await api.signIn('guesser');
    for (let attempt = 0; attempt < PAIR_MAX_FAILURES; attempt++) {
      const answer = await client.post('user/change_password/', {
        current_password: `Guess-number-${attempt}`,
        new_password: 'Fresh-Pass-42',
      });
      expect(answer.status).toBe(400);
    }
    const locked = await client.post('user/change_password/', {
      current_password: PASSWORD,
      new_password: 'Fresh-Pass-42',
    });
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({
      error: expect.stringMatching(/Too many/),
      detail: expect.stringMatching(/Too many/),
    });
    expect(await loginStatus('guesser', PASSWORD)).toBe(429);
  });

  test('success: {message}; the old password no longer signs in, the new one does; this session stays, every other one and the app token end', async () => {
    const current = await api.signIn('pw_changer');
    const other = await api.signIn('pw_changer');
    const token = await appToken('pw_changer');
    expect(await appTokenWorks(token)).toBe(true);

    const answer = await current.post('user/change_password/', {
      current_password: PASSWORD,
      new_password: 'Fresh-Pass-42',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: expect.stringMatching(/password has been changed/) });

    expect((await current.get('user/get_role/')).status).toBe(200);
    expect((await current.post('user/refresh/')).status).toBe(200);
    expect((await other.get('user/get_role/')).status).toBe(401);
    expect((await other.post('user/refresh/')).status).toBe(401);
    expect(await appTokenWorks(token)).toBe(false);
    expect(await loginStatus('pw_changer', PASSWORD)).toBe(401);
    expect(await loginStatus('pw_changer', 'Fresh-Pass-42')).toBe(200);
  });
});

describe('user/reset_password/', () => {
  const cases = Object.keys(MANAGES).flatMap((actor) =>
    ROLES.map((target) => ({ actor, target, allowed: MANAGES[actor]!.includes(target) })),
  );
  test.each(cases)(
    '$actor resetting the password of a user with role $target: allowed=$allowed, exactly as deactivate_user',
    async ({ actor, target, allowed }) => {
      const body = { user_id: id(`t_${target}`), new_password: `Reset-by-${actor}-7` };
      const answer = await actors[actor]!.post('user/reset_password/', body);
      if (allowed) {
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({
          message: `Password of user t_${target} reset successfully. Their sessions have been signed out.`,
        });
        expect(await loginStatus(`t_${target}`, body.new_password)).toBe(200);
      } else {
        expect(answer.status).toBe(403);
        expect(answer.body).toEqual({
          error: roleNotManagedRefusal(target),
          detail: expect.any(String),
        });
        // deactivate_user refuses the same pair.
        expect((await actors[actor]!.post('user/deactivate_user/', { user_id: body.user_id })).status).toBe(403);
      }
    },
  );

  test.each(['super_admin', 'admin', 'central_ops', 'incharge'])(
    '%s can never reset their own password this way (403)',
    async (role) => {
      const me = role === 'super_admin' ? ADMIN_USERNAME : `a_${role}`;
      const answer = await actors[role]!.post('user/reset_password/', {
        user_id: id(me),
        new_password: 'Fresh-Pass-42',
      });
      expect(answer.status).toBe(403);
      expect(answer.body.error).toBe(OWN_ACCOUNT_REFUSAL);
    },
  );

  test('an unknown user answers 404 {error}, an invalid user_id 400 {error, field}, no session 401', async () => {
    const unknown = await api.superAdmin.post('user/reset_password/', {
      user_id: 999999,
      new_password: 'Fresh-Pass-42',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: 'User not found.', detail: 'User not found.' });
    const invalid = await api.superAdmin.post('user/reset_password/', {
      user_id: 'abc',
      new_password: 'Fresh-Pass-42',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ field: 'user_id', error: expect.any(String) });
    const anonymous = api.client();
    await anonymous.get('user/is_LoggedIn/');
    expect(
      (await anonymous.post('user/reset_password/', { user_id: id('reset_me'), new_password: 'Fresh-Pass-42' })).status,
    ).toBe(401);
  });

  test('a missing new password answers 400 naming new_password', async () => {
    const answer = await api.superAdmin.post('user/reset_password/', { user_id: id('reset_me') });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ field: 'new_password', error: expect.any(String), detail: expect.any(String) });
  });

  test.each(RULE_CASES('reset_me'))(
    "a new password %s is refused, the username being the target's: 400 {error, detail, field}",
    async (_name, password, message) => {
      const answer = await actors.incharge!.post('user/reset_password/', {
        user_id: id('reset_me'),
        new_password: password,
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ field: 'new_password', error: message, detail: message });
      expect(await loginStatus('reset_me', PASSWORD)).toBe(200);
    },
  );

  test('success ends every console session and app token of the target at once; the old password fails, the new one signs in', async () => {
    const console1 = await api.signIn('reset_me');
    const console2 = await api.signIn('reset_me');
    const token = await appToken('reset_me');

    const answer = await actors.incharge!.post('user/reset_password/', {
      user_id: id('reset_me'),
      new_password: 'Given-By-Incharge-9',
    });
    expect(answer.status).toBe(200);

    for (const client of [console1, console2]) {
      expect((await client.get('user/get_role/')).status).toBe(401);
      expect((await client.post('user/refresh/')).status).toBe(401);
    }
    expect(await appTokenWorks(token)).toBe(false);
    expect(await loginStatus('reset_me', PASSWORD)).toBe(401);
    expect(await loginStatus('reset_me', 'Given-By-Incharge-9')).toBe(200);
    // The one who reset it is still signed in.
    expect((await actors.incharge!.get('user/get_role/')).status).toBe(200);
  });

  test('a user throttled by failed sign-ins can sign in with the reset password at once', async () => {
    for (let attempt = 0; attempt < PAIR_MAX_FAILURES; attempt++)
      expect(await loginStatus('locked_out', `Guess-number-${attempt}`)).toBe(401);
    expect(await loginStatus('locked_out', PASSWORD)).toBe(429);
    expect(
      (
        await api.superAdmin.post('user/reset_password/', {
          user_id: id('locked_out'),
          new_password: 'After-The-Lock-3',
        })
      ).status,
    ).toBe(200);
    expect(await loginStatus('locked_out', 'After-The-Lock-3')).toBe(200);
  });
});

describe('XSRF', () => {
  test.each([
    ['user/change_password/', () => ({ current_password: PASSWORD, new_password: 'Fresh-Pass-42' })],
    ['user/reset_password/', () => ({ user_id: id('t_executive'), new_password: 'Fresh-Pass-42' })],
  ])('POST %s without the X-XSRF-TOKEN header is 403 with detail', async (path, body) => {
    const client = await api.signIn('a_admin');
    const answer = await client.post(path, body(), { xsrf: false });
    expect(answer.status).toBe(403);
    expect(answer.body.detail).toMatch(/CSRF/);
  });
});
