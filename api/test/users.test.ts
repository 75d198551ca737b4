// user/* management routes and the server's role rules (docs/screens.md#server-side-rights).
import { ADMIN_PASSWORD, ADMIN_USERNAME, build } from './support/build';

const ROLES = ['operators', 'executive', 'incharge', 'central_ops', 'admin', 'super_admin'] as const;
const ASSIGNABLE: Record<string, string[]> = {
  executive: [],
  incharge: ['executive', 'operators'],
  central_ops: ['incharge', 'executive'],
  admin: ['operators', 'executive', 'incharge', 'central_ops'],
  super_admin: ['operators', 'executive', 'incharge', 'central_ops'],
};

const api = build({
  groups: [
    { code: 'HUB1', organization: 'hub' },
    { code: 'HUB2', organization: 'hub' },
    { code: 'RC1', organization: 'RC' },
  ],
  users: [
    { username: 'ops1', role: 'central_ops' },
    { username: 'incharge1', role: 'incharge', group: 'HUB1' },
    { username: 'exec1', role: 'executive', group: 'HUB1' },
    { username: 'rcexec1', role: 'executive', group: 'RC1' },
    { username: 'wm1', role: 'operators', group: 'HUB1' },
    { username: 'admin1', role: 'admin' },
  ],
  signIn: {
    super_admin: ADMIN_USERNAME,
    admin: 'admin1',
    central_ops: 'ops1',
    incharge: 'incharge1',
    executive: 'exec1',
  },
});
const { as } = api;

async function usersByName(): Promise<Map<string, { id: number; role: string; is_active: boolean }>> {
  const answer = await api.superAdmin.get('user/get_users/');
  return new Map(
    answer.body.map((u: { username: string; id: number; role: string; is_active: boolean }) => [u.username, u]),
  );
}

const newUser = (username: string, role: string, extra: Record<string, unknown> = {}) => ({
  username,
  email: `${username}@example.com`,
  password: 'Secret-123',
  role,
  group: role === 'central_ops' ? '' : 'HUB1',
  organization: role === 'central_ops' ? '' : 'hub',
  ...extra,
});

describe('get_role', () => {
  test('answers {user, role, hub_code} with the code of the user hub group (and the server features, docs/architecture.md#server-features)', async () => {
    expect((await as.executive!.get('user/get_role/')).body).toMatchObject({
      user: 'exec1',
      role: 'executive',
      hub_code: 'HUB1',
    });
  });

  test('hub_code is null for a user of an RC group and for a user without group', async () => {
    const rc = await api.signIn('rcexec1');
    expect((await rc.get('user/get_role/')).body).toMatchObject({ user: 'rcexec1', role: 'executive', hub_code: null });
    expect((await as.central_ops!.get('user/get_role/')).body).toMatchObject({
      user: 'ops1',
      role: 'central_ops',
      hub_code: null,
    });
  });

  test('answers 401 without a session', async () => {
    expect((await api.client().get('user/get_role/')).status).toBe(401);
  });
});

describe('get_groups', () => {
  test('answers every group as {name, code, organization}', async () => {
    const answer = await as.executive!.get('user/get_groups/');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(
      expect.arrayContaining([
        { name: 'HUB1', code: 'HUB1', organization: 'hub' },
        { name: 'HUB2', code: 'HUB2', organization: 'hub' },
        { name: 'RC1', code: 'RC1', organization: 'RC' },
      ]),
    );
    for (const group of answer.body) expect(Object.keys(group).sort()).toEqual(['code', 'name', 'organization']);
  });

  test('answers 401 without a session', async () => {
    expect((await api.client().get('user/get_groups/')).status).toBe(401);
  });
});

describe('create user: role matrix (creator × target role)', () => {
  const cases = Object.keys(ASSIGNABLE).flatMap((creator) =>
    ROLES.map((target) => ({ creator, target, allowed: ASSIGNABLE[creator]!.includes(target) })),
  );
  test.each(cases)(
    '$creator creating a $target user: allowed=$allowed (else 403 {detail})',
    async ({ creator, target, allowed }) => {
      const username = `m_${creator}_${target}`;
      const answer = await as[creator]!.post('user/create/', newUser(username, target));
      if (allowed) {
        expect(answer.status).toBe(201);
        expect(answer.body).toMatchObject({ username, role: target });
      } else {
        expect(answer.status).toBe(403);
        expect(answer.body.detail).toEqual(expect.any(String));
      }
    },
  );

  test('a created user can sign in with the given password and has the given group', async () => {
    const client = api.client();
    expect((await client.login('m_super_admin_executive', 'Secret-123')).status).toBe(200);
    expect((await client.get('user/get_role/')).body.hub_code).toBe('HUB1');
  });

  test('a central_ops user needs no organization or group', async () => {
    const answer = await api.superAdmin.post(
      'user/create/',
      newUser('ops_nogroup', 'central_ops', { group: 'HUB1', organization: 'hub' }),
    );
    expect(answer.status).toBe(201);
    const client = await api.signIn('ops_nogroup', 'Secret-123');
    expect((await client.get('user/get_role/')).body.hub_code).toBeNull();
  });

  test('answers 401 without a session', async () => {
    const client = api.client();
    await client.get('user/is_LoggedIn/');
    expect((await client.post('user/create/', newUser('anon_user', 'executive'))).status).toBe(401);
  });
});

describe('create user: validation answers 400 {detail, field}', () => {
  test.each([
    ['username missing', { username: '' }, 'username'],
    ['email missing', { email: '' }, 'email'],
    ['email malformed', { email: 'not-an-email' }, 'email'],
    ['password missing', { password: '' }, 'password'],
    ['role missing', { role: '' }, 'role'],
    ['role unknown', { role: 'wizard' }, 'role'],
    ['organization missing for a hub role', { organization: '' }, 'organization'],
    ['organization not hub or RC', { organization: 'moon' }, 'organization'],
    ['group missing for a hub role', { group: '' }, 'group'],
    ['group unknown', { group: 'NOPE' }, 'group'],
    ['group of another organization', { group: 'RC1', organization: 'hub' }, 'group'],
  ])('%s', async (_name, change, field) => {
    const answer = await api.superAdmin.post('user/create/', newUser('v_user', 'executive', change));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ field, detail: expect.any(String) });
  });

  test.each(['<b>x</b>', 'two words', 'josé', 'a/b'])(
    'a username of other characters than letters, digits and @ . + - _ answers 400 naming them (%s)',
    async (username) => {
      const answer = await api.superAdmin.post('user/create/', newUser(username, 'executive'));
      expect([answer.status, answer.body]).toEqual([
        400,
        { field: 'username', detail: 'Username may contain only letters, digits and @ . + - _ characters.' },
      ]);
    },
  );

  test('a username of letters, digits and @ . + - _ is taken', async () => {
    const answer = await api.superAdmin.post(
      'user/create/',
      newUser('Field.Ops+1_a-b@blr', 'executive', { email: 'field.ops@example.com' }),
    );
    expect(answer.status).toBe(201);
  });

  test('duplicate username answers 400 {detail}', async () => {
    const answer = await api.superAdmin.post('user/create/', newUser('exec1', 'executive'));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ field: 'username', detail: 'A user with that username already exists.' });
  });

  test('a username is taken ignoring case, for requests at once too: one of the spellings is created', async () => {
    const other = await api.superAdmin.post('user/create/', newUser('EXEC1', 'executive'));
    expect([other.status, other.body]).toEqual([
      400,
      expect.objectContaining({ field: 'username', detail: 'A user with that username already exists.' }),
    ]);
    const spellings = ['twin1', 'TWIN1', 'Twin1', 'tWIN1'];
    const answers = await Promise.all(
      spellings.map((username) => api.superAdmin.post('user/create/', newUser(username, 'executive'))),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 400, 400, 400]);
    const users = (await api.superAdmin.get('user/get_users/')).body as { username: string }[];
    expect(users.filter((user) => user.username.toLowerCase() === 'twin1')).toHaveLength(1);
  });
});

describe('create_group', () => {
  test.each(['executive', 'incharge', 'central_ops'])('%s is refused with 403 {detail}', async (role) => {
    const answer = await as[role]!.post('user/create_group/', { name: 'X1', code: 'X1', organization: 'hub' });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ detail: 'You do not have permission to create a group.' });
  });

  test.each(['admin', 'super_admin'])(
    '%s creates a group: 201 {name, code, organization}, listed by get_groups',
    async (role) => {
      const code = `G-${role}`;
      const answer = await as[role]!.post('user/create_group/', { name: code, code, organization: 'RC' });
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({ name: code, code, organization: 'RC' });
      expect((await as[role]!.get('user/get_groups/')).body).toContainEqual({ name: code, code, organization: 'RC' });
    },
  );

  test('a duplicate code answers 400 {detail, field:"code"}', async () => {
    const answer = await api.superAdmin.post('user/create_group/', { name: 'HUB1', code: 'HUB1', organization: 'hub' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ field: 'code', detail: expect.stringMatching(/already exists/) });
  });

  test('codes and names are unique ignoring case: 400 naming the group that has it', async () => {
    const refusals: [{ name: string; code: string }, { field: string; detail: string }][] = [
      [
        { name: 'Other', code: 'hub1' },
        { field: 'code', detail: 'A group with code "HUB1" already exists.' },
      ],
      [
        { name: 'hub1', code: 'CASED1' },
        { field: 'name', detail: 'A group named "HUB1" already exists.' },
      ],
    ];
    for (const [group, refusal] of refusals) {
      const answer = await api.superAdmin.post('user/create_group/', { ...group, organization: 'hub' });
      expect([answer.status, answer.body]).toEqual([400, refusal]);
    }
    const groups = (await api.superAdmin.get('user/get_groups/')).body as { code: string }[];
    expect(groups.filter((group) => group.code.toLowerCase() === 'hub1')).toHaveLength(1);
  });

  test('codes unique ignoring case hold for requests at once: one of the spellings is created', async () => {
    const spellings = ['race1', 'RACE1', 'Race1', 'rACE1', 'raCE1', 'racE1'];
    const answers = await Promise.all(
      spellings.map((code) => api.superAdmin.post('user/create_group/', { name: code, code, organization: 'hub' })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
    const groups = (await api.superAdmin.get('user/get_groups/')).body as { code: string }[];
    expect(groups.filter((group) => group.code.toLowerCase() === 'race1')).toHaveLength(1);
  });

  test.each([
    ['code missing', { code: '' }, 'code'],
    ['code with spaces', { code: 'A B' }, 'code'],
    ['organization missing', { organization: '' }, 'organization'],
    ['organization not hub or RC', { organization: 'HUB' }, 'organization'],
  ])('validation: %s answers 400 naming the field', async (_name, change, field) => {
    const answer = await api.superAdmin.post('user/create_group/', {
      name: 'V1',
      code: 'V1',
      organization: 'hub',
      ...change,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ field, detail: expect.any(String) });
  });

  test('the name is unique, text without NUL of at most 64 characters: else 400 naming the name', async () => {
    const refusals: [unknown, string][] = [
      ['HUB1', 'A group named "HUB1" already exists.'],
      ['a\u0000b', 'name must be text without NUL characters or unpaired surrogates.'],
      ['x'.repeat(65), 'Name may be at most 64 characters.'],
    ];
    for (const [name, message] of refusals) {
      const answer = await api.superAdmin.post('user/create_group/', { name, code: 'NAMED1', organization: 'hub' });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ field: 'name', detail: message });
    }
    const longest = 'n'.repeat(64);
    const answer = await api.superAdmin.post('user/create_group/', {
      name: longest,
      code: 'NAMED1',
      organization: 'hub',
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ name: longest, code: 'NAMED1', organization: 'hub' });
  });

  test('the name defaults to the code', async () => {
    await api.superAdmin.post('user/create_group/', { code: 'NONAME', organization: 'hub' });
    expect((await api.superAdmin.get('user/get_groups/')).body).toContainEqual({
      name: 'NONAME',
      code: 'NONAME',
      organization: 'hub',
    });
  });
});

describe('get_users', () => {
  test('items are {id, username, role, is_active, group_info:[{name}]}', async () => {
    const answer = await api.superAdmin.get('user/get_users/');
    expect(answer.status).toBe(200);
    const exec = answer.body.find((u: { username: string }) => u.username === 'exec1');
    expect(exec).toEqual({
      id: expect.any(Number),
      username: 'exec1',
      role: 'executive',
      is_active: true,
      group_info: [{ name: 'HUB1' }],
    });
    const ops = answer.body.find((u: { username: string }) => u.username === 'ops1');
    expect(ops.group_info).toEqual([]);
  });

  test.each(['admin', 'super_admin'])('%s sees every user', async (role) => {
    const roles = new Set((await as[role]!.get('user/get_users/')).body.map((u: { role: string }) => u.role));
    expect([...roles].sort()).toEqual([...ROLES].sort());
  });

  test.each(['incharge', 'central_ops', 'executive'])('%s sees only users whose role it may assign', async (role) => {
    const answer = await as[role]!.get('user/get_users/');
    expect(answer.status).toBe(200);
    for (const user of answer.body) expect(ASSIGNABLE[role]).toContain(user.role);
    expect(answer.body.length > 0).toBe(ASSIGNABLE[role]!.length > 0);
  });

  test('answers 401 without a session', async () => {
    expect((await api.client().get('user/get_users/')).status).toBe(401);
  });
});

describe('delete_user', () => {
  test.each(['admin', 'central_ops', 'incharge'])('%s is refused with 403 {error, detail}', async (role) => {
    const target = (await usersByName()).get('wm1')!;
    const answer = await as[role]!.post('user/delete_user/', { user_id: target.id });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ error: expect.any(String), detail: expect.any(String) });
  });

  test('super_admin deletes another user: 200 {message}, the user is gone and cannot sign in', async () => {
    await api.superAdmin.post('user/create/', newUser('doomed', 'executive'));
    const target = (await usersByName()).get('doomed')!;
    const answer = await api.superAdmin.post('user/delete_user/', { user_id: target.id });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toEqual(expect.any(String));
    expect((await usersByName()).has('doomed')).toBe(false);
    expect((await api.client().login('doomed', 'Secret-123')).status).toBe(401);
  });

  test('super_admin can never delete oneself (403 {error})', async () => {
    const me = (await usersByName()).get(ADMIN_USERNAME)!;
    const answer = await api.superAdmin.post('user/delete_user/', { user_id: me.id });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatch(/your own account/);
    expect((await api.client().login(ADMIN_USERNAME, ADMIN_PASSWORD)).status).toBe(200);
  });

  test('an unknown user answers 404 {error} and an invalid user_id 400 {error, field}', async () => {
    expect((await api.superAdmin.post('user/delete_user/', { user_id: 999999 })).status).toBe(404);
    const invalid = await api.superAdmin.post('user/delete_user/', { user_id: 'abc' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ error: expect.any(String), detail: expect.any(String), field: 'user_id' });
  });
});

describe('deactivate_user and activate_user', () => {
  test('incharge may deactivate and activate an executive of its assignable roles: 200 {message}', async () => {
    const target = (await usersByName()).get('m_super_admin_executive')!;
    const off = await as.incharge!.post('user/deactivate_user/', { user_id: target.id });
    expect(off.status).toBe(200);
    expect(off.body.message).toEqual(expect.any(String));
    expect((await usersByName()).get('m_super_admin_executive')!.is_active).toBe(false);
    const on = await as.incharge!.post('user/activate_user/', { user_id: String(target.id) });
    expect(on.status).toBe(200);
    expect((await usersByName()).get('m_super_admin_executive')!.is_active).toBe(true);
  });

  test.each([
    ['incharge', 'ops1'],
    ['incharge', 'incharge1'],
    ['central_ops', 'wm1'],
    ['executive', 'wm1'],
    ['admin', ADMIN_USERNAME],
  ])('%s may not deactivate %s (a role it cannot assign): 403 {error, detail}', async (role, username) => {
    const target = (await usersByName()).get(username)!;
    for (const action of ['deactivate_user', 'activate_user']) {
      const answer = await as[role]!.post(`user/${action}/`, { user_id: target.id });
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ error: expect.any(String), detail: expect.any(String) });
    }
    expect((await usersByName()).get(username)!.is_active).toBe(true);
  });

  test.each(['super_admin', 'admin', 'central_ops'])(
    '%s can never deactivate or activate oneself (403)',
    async (role) => {
      const me = (await as[role]!.get('user/get_role/')).body.user as string;
      const id = (await usersByName()).get(me)!.id;
      const answer = await as[role]!.post('user/deactivate_user/', { user_id: id });
      expect(answer.status).toBe(403);
      expect(answer.body.error).toMatch(/your own account/);
      expect((await as[role]!.post('user/activate_user/', { user_id: id })).status).toBe(403);
    },
  );

  test('a deactivated user cannot log in (403 Account is deactivated)', async () => {
    const target = (await usersByName()).get('m_admin_incharge')!;
    expect((await as.admin!.post('user/deactivate_user/', { user_id: target.id })).status).toBe(200);
    const answer = await api.client().login('m_admin_incharge', 'Secret-123');
    expect(answer.status).toBe(403);
    expect(answer.body.res).toBe('Account is deactivated');
  });
});
