import { useSession, type Group, type Role } from '@veritas/shared';
import {
  FakeEventSource,
  mockApi,
  mutationsKeep,
  type MockApi,
  type MockHandler,
  withFakeLiveStream,
  withQueryClient,
} from '@veritas/shared/testing';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createQueryClient } from '@veritas/shared/query';
import CreateUserPage from './create-user-page';

const GROUPS: Group[] = [
  { name: 'BLR01', code: 'BLR01', organization: 'hub' },
  { name: 'DEL02', code: 'DEL02', organization: 'hub' },
  { name: 'RC North', code: 'RC-NORTH', organization: 'RC' },
];

let api: MockApi;
afterEach(() => api.restore());

function signIn(role: Role) {
  useSession.getState().setSession({ user: 'creator', role, hubCode: null });
}

/** The page's query client, to see what it keeps. */
let client: ReturnType<typeof createQueryClient>;

async function renderPage({ role = 'admin', groups = [200, GROUPS] }: { role?: Role; groups?: MockHandler } = {}) {
  signIn(role);
  client = createQueryClient();
  api = mockApi()
    .on('GET user/get_groups/', groups)
    .on('POST user/create/', [201, { message: 'ok' }])
    .on('POST user/create_group/', [201, {}]);
  render(<CreateUserPage />, { wrapper: withQueryClient(client) });
  await screen.findByRole('combobox', { name: 'Role' });
  await waitFor(() => expect(api.requestsTo('GET user/get_groups/')).toHaveLength(1));
}

const userForm = () => screen.getByRole('form', { name: 'Create User' });
const groupForm = () => screen.getByRole('form', { name: 'Create Group' });

/** The labels a select of `form` offers. */
async function optionsOf(form: HTMLElement, label: string): Promise<string[]> {
  await userEvent.click(within(form).getByRole('combobox', { name: label }));
  const listbox = within(form).getByRole('listbox', { name: label });
  await waitFor(() => expect(within(listbox).queryByText('Loading...')).not.toBeInTheDocument());
  const labels = within(listbox)
    .queryAllByRole('option')
    .map((option) => option.textContent ?? '');
  await userEvent.keyboard('{Escape}');
  return labels;
}

async function choose(form: HTMLElement, label: string, option: string) {
  await userEvent.click(await within(form).findByRole('combobox', { name: label }));
  await userEvent.click(await within(form).findByRole('option', { name: option }));
}

async function fillUser(values: {
  username?: string;
  email?: string;
  password?: string;
  role?: string;
  organization?: string;
  group?: string;
}) {
  const form = userForm();
  if (values.username) await userEvent.type(within(form).getByLabelText('Username'), values.username);
  if (values.email) await userEvent.type(within(form).getByLabelText('Email'), values.email);
  if (values.password) await userEvent.type(within(form).getByLabelText('Password'), values.password);
  if (values.role) await choose(form, 'Role', values.role);
  if (values.organization) await choose(form, 'Organization', values.organization);
  if (values.group) await choose(form, 'Group', values.group);
}

const VALID = {
  username: 'asha',
  email: 'asha@example.com',
  password: 'Str0ng#pass',
  role: 'executive',
  organization: 'HUB',
  group: 'DEL02',
};

async function submitUser() {
  await userEvent.click(within(userForm()).getByRole('button', { name: 'Create User' }));
}

describe('role choices', () => {
  test.each<[Role, string[]]>([
    ['incharge', ['executive', 'Wishmaster']],
    ['central_ops', ['incharge', 'executive']],
    ['admin', ['Wishmaster', 'executive', 'incharge', 'central_ops']],
    ['super_admin', ['Wishmaster', 'executive', 'incharge', 'central_ops']],
    ['executive', []],
    ['operators', []],
  ])('a %s creator may assign %j', async (role, labels) => {
    await renderPage({ role });
    expect(await optionsOf(userForm(), 'Role')).toEqual(labels);
  });
});

describe('organization and group', () => {
  test('organization choices are only the organizations present in the fetched groups', async () => {
    await renderPage({ groups: [200, GROUPS.filter((g) => g.organization === 'hub')] });
    expect(await optionsOf(userForm(), 'Organization')).toEqual(['HUB']);
  });

  test('both organizations are offered when groups of both exist', async () => {
    await renderPage();
    expect(await optionsOf(userForm(), 'Organization')).toEqual(['HUB', 'RC']);
  });

  test('group choices are narrowed to the chosen organization, by name', async () => {
    await renderPage();
    await choose(userForm(), 'Organization', 'RC');
    expect(await optionsOf(userForm(), 'Group')).toEqual(['RC North']);
    await choose(userForm(), 'Organization', 'HUB');
    expect(await optionsOf(userForm(), 'Group')).toEqual(['BLR01', 'DEL02']);
  });

  test('changing organization clears the group', async () => {
    await renderPage();
    await choose(userForm(), 'Organization', 'HUB');
    await choose(userForm(), 'Group', 'BLR01');
    expect(within(userForm()).getByRole('combobox', { name: 'Group' })).toHaveValue('BLR01');
    await choose(userForm(), 'Organization', 'RC');
    expect(within(userForm()).getByRole('combobox', { name: 'Group' })).toHaveValue('');
  });

  test('the group select is clearable', async () => {
    await renderPage();
    await choose(userForm(), 'Organization', 'HUB');
    await choose(userForm(), 'Group', 'BLR01');
    await userEvent.click(within(userForm()).getByRole('button', { name: 'Clear Group' }));
    expect(within(userForm()).getByRole('combobox', { name: 'Group' })).toHaveValue('');
  });

  test("central_ops hides organization and group and sends '' for both", async () => {
    await renderPage();
    await fillUser({ ...VALID, organization: undefined, group: undefined, role: 'central_ops' });
    expect(within(userForm()).queryByRole('combobox', { name: 'Organization' })).not.toBeInTheDocument();
    expect(within(userForm()).queryByRole('combobox', { name: 'Group' })).not.toBeInTheDocument();
    await submitUser();
    await within(userForm()).findByRole('status');
    expect(api.requestsTo('POST user/create/')[0]!.body).toEqual({
      username: 'asha',
      email: 'asha@example.com',
      password: 'Str0ng#pass',
      role: 'central_ops',
      group: '',
      organization: '',
    });
  });
});

describe('user form validation sends nothing', () => {
  test.each([
    {
      case: 'an empty username',
      values: { ...VALID, username: undefined },
      message: 'Username and email are required',
    },
    { case: 'an empty email', values: { ...VALID, email: undefined }, message: 'Username and email are required' },
    {
      case: 'a username with a space and markup',
      values: { ...VALID, username: '<b>asha</b> blr' },
      message: 'Username may contain only letters, digits and @ . + - _ characters.',
    },
    {
      case: 'a malformed email',
      values: { ...VALID, email: 'asha@example' },
      message: 'Enter a valid email address.',
    },
    { case: 'no password', values: { ...VALID, password: undefined }, message: 'Password is required.' },
    {
      case: 'a short password',
      values: { ...VALID, password: 'Ab#1' },
      message: 'Password must be at least 8 characters',
    },
    {
      case: 'the username as password',
      values: { ...VALID, username: 'asha_blr', password: 'ASHA_BLR' },
      message: 'Password must not be the username',
    },
    {
      case: 'a common password',
      values: { ...VALID, password: 'Password123' },
      message: 'This password is too common: choose one that is harder to guess',
    },
    { case: 'no role', values: { ...VALID, role: undefined }, message: 'Role is required.' },
    {
      case: 'no organization',
      values: { ...VALID, organization: undefined, group: undefined },
      message: 'Organization is required for this role.',
    },
    { case: 'no group', values: { ...VALID, group: undefined }, message: 'Group is required for this role.' },
  ])('$case shows $message', async ({ values, message }) => {
    await renderPage();
    await fillUser(values);
    await submitUser();
    expect(within(userForm()).getByRole('alert')).toHaveTextContent(message);
    expect(api.requestsTo('POST user/create/')).toHaveLength(0);
  });
});

describe('user form submission', () => {
  test("success shows 'User created successfully!', sends the payload and resets the form", async () => {
    await renderPage();
    await fillUser(VALID);
    await submitUser();
    expect(await within(userForm()).findByRole('status')).toHaveTextContent('User created successfully!');
    expect(api.requestsTo('POST user/create/')[0]!.body).toEqual({
      username: 'asha',
      email: 'asha@example.com',
      password: 'Str0ng#pass',
      role: 'executive',
      group: 'DEL02',
      organization: 'hub',
    });
    const form = userForm();
    expect(within(form).getByLabelText('Username')).toHaveValue('');
    expect(within(form).getByLabelText('Email')).toHaveValue('');
    expect(within(form).getByLabelText('Password')).toHaveValue('');
    // The selects show their new (empty) value one effect after the reset.
    await waitFor(() => expect(within(form).getByRole('combobox', { name: 'Role' })).toHaveValue(''));
    expect(within(form).getByRole('combobox', { name: 'Organization' })).toHaveValue('');
  });

  test("the new user's password is kept nowhere once sent, not even in the query cache", async () => {
    await renderPage();
    await fillUser(VALID);
    await submitUser();
    expect(await within(userForm()).findByRole('status')).toHaveTextContent('User created successfully!');
    await waitFor(() => expect(mutationsKeep(client, VALID.password)).toBe(false));
  });

  test.each<[string, MockHandler, string]>([
    [
      "the server's detail field",
      [400, { detail: 'A user with that username already exists.', field: 'username' }],
      'A user with that username already exists.',
    ],
    ['else the whole body as JSON', [400, { username: ['taken'] }], '{"username":["taken"]}'],
    ['else a text body as-is', [500, 'Server exploded'], 'Server exploded'],
    ["else 'Failed to create user.'", [500, undefined], 'Failed to create user.'],
  ])('a failure shows %s', async (_case, reply, message) => {
    await renderPage();
    api.on('POST user/create/', reply);
    await fillUser(VALID);
    await submitUser();
    expect(await within(userForm()).findByRole('alert')).toHaveTextContent(message);
    expect(within(userForm()).getByLabelText('Username')).toHaveValue('asha');
  });

  test('the password rule is shown under the password field, which it describes', async () => {
    await renderPage();
    expect(within(userForm()).getByLabelText('Password')).toHaveAccessibleDescription(
      'At least 8 characters, not the username and not a commonly used password.',
    );
  });

  test('the password can be shown and hidden', async () => {
    await renderPage();
    const password = within(userForm()).getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await userEvent.click(within(userForm()).getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await userEvent.click(within(userForm()).getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });
});

test("the page is named by a level-one heading, its title 'Create User and Create Group'; each form by its own", async () => {
  await renderPage();
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Create User and Create Group');
  expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
    'Create User',
    'Create Group',
  ]);
});

describe('groups', () => {
  test("a failed group fetch shows 'Failed to fetch groups.'", async () => {
    await renderPage({ groups: [500, undefined] });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch groups.');
  });

  test("a failed group fetch shows 'Failed to fetch groups.' even when the server says more", async () => {
    await renderPage({ groups: [403, { detail: 'Not allowed here' }] });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch groups.');
  });

  test('a non-list answer is a failed group fetch', async () => {
    await renderPage({ groups: [200, { groups: GROUPS }] });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch groups.');
  });

  test.each<[Role, boolean]>([
    ['admin', true],
    ['super_admin', true],
    ['central_ops', false],
    ['incharge', false],
    ['executive', false],
  ])('the group form is shown to %s: %s', async (role, shown) => {
    await renderPage({ role });
    expect(screen.queryByRole('form', { name: 'Create Group' }) !== null).toBe(shown);
  });

  test('the group name mirrors the code as typed', async () => {
    await renderPage();
    await userEvent.type(within(groupForm()).getByLabelText('Code'), 'PNQ04');
    expect(within(groupForm()).getByLabelText('Name')).toHaveValue('PNQ04');
    expect(within(groupForm()).getByLabelText('Name')).toHaveAttribute('readonly');
  });

  test.each<[string, { code?: string; organization?: string }]>([
    ['no code', { organization: 'HUB' }],
    ['no organization', { code: 'PNQ04' }],
  ])("%s shows 'Code and organization are required' and sends nothing", async (_case, values) => {
    await renderPage();
    if (values.code) await userEvent.type(within(groupForm()).getByLabelText('Code'), values.code);
    if (values.organization) await choose(groupForm(), 'Organization', values.organization);
    await userEvent.click(within(groupForm()).getByRole('button', { name: 'Create Group' }));
    expect(within(groupForm()).getByRole('alert')).toHaveTextContent('Code and organization are required');
    expect(api.requestsTo('POST user/create_group/')).toHaveLength(0);
  });

  async function createGroup(code: string, organization: string) {
    await userEvent.type(within(groupForm()).getByLabelText('Code'), code);
    await choose(groupForm(), 'Organization', organization);
    await userEvent.click(within(groupForm()).getByRole('button', { name: 'Create Group' }));
  }

  test("success shows 'Group created successfully!', sends name = code, resets the form", async () => {
    await renderPage();
    await createGroup('PNQ04', 'HUB');
    expect(await within(groupForm()).findByRole('status')).toHaveTextContent('Group created successfully!');
    expect(api.requestsTo('POST user/create_group/')[0]!.body).toEqual({
      name: 'PNQ04',
      code: 'PNQ04',
      organization: 'hub',
    });
    expect(within(groupForm()).getByLabelText('Code')).toHaveValue('');
    await waitFor(() => expect(within(groupForm()).getByRole('combobox', { name: 'Organization' })).toHaveValue(''));
  });

  test.each<[string, string, MockHandler]>([
    [
      '403',
      'You do not have permission to create a group.',
      [403, { detail: 'You do not have permission to create a group.' }],
    ],
    [
      '403 in other words',
      'You do not have permission to create a group.',
      [403, { detail: 'Only admins create groups.' }],
    ],
    ['403 without a body', 'You do not have permission to create a group.', [403, undefined]],
    ['500', 'Failed to create group.', [500, { detail: 'Internal server error' }]],
    ['no answer', 'Failed to create group.', [0, undefined]],
  ])("a %s failure shows %j (the spec's text, never the server's)", async (_status, message, reply) => {
    await renderPage();
    api.on('POST user/create_group/', reply);
    await createGroup('PNQ04', 'HUB');
    expect(await within(groupForm()).findByRole('alert')).toHaveTextContent(message);
  });

  test.each<[string, string]>([
    ['code', 'A group with code "pnq04" already exists.'],
    ['name', 'A group named "PNQ04" already exists.'],
  ])(
    "the server's refusal of the %s shows under that field, and the notice says 'Failed to create group.'",
    async (field, refusal) => {
      await renderPage();
      api.on('POST user/create_group/', [400, { detail: refusal, field }]);
      await createGroup('PNQ04', 'HUB');
      expect(await within(groupForm()).findByRole('alert')).toHaveTextContent('Failed to create group.');
      const input = within(groupForm()).getByLabelText(field === 'code' ? 'Code' : 'Name');
      expect(input).toHaveAccessibleDescription(refusal);
      expect(input).toHaveAttribute('aria-invalid', 'true');
      // What was typed stays, to be corrected.
      expect(within(groupForm()).getByLabelText('Code')).toHaveValue('PNQ04');
    },
  );

  test.each(['PNQ 04', 'PNQ/04', 'P'.repeat(33)])(
    'a code the schema refuses (%j) is a fault under the Code field, and nothing is sent',
    async (code) => {
      await renderPage();
      await createGroup(code, 'HUB');
      const input = within(groupForm()).getByLabelText('Code');
      expect(input).toHaveAccessibleDescription('Code may only contain letters, digits, "-" and "_" (at most 32).');
      expect(input).toHaveFocus();
      expect(api.requestsTo('POST user/create_group/')).toHaveLength(0);
    },
  );

  test('a code refused before sending is sent once corrected, its fault gone', async () => {
    await renderPage();
    await createGroup('PNQ 04', 'HUB');
    const input = within(groupForm()).getByLabelText('Code');
    await userEvent.clear(input);
    await userEvent.type(input, 'PNQ04');
    await userEvent.click(within(groupForm()).getByRole('button', { name: 'Create Group' }));
    expect(await within(groupForm()).findByRole('status')).toHaveTextContent('Group created successfully!');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(api.requestsTo('POST user/create_group/')).toHaveLength(1);
  });

  test("a new group appears in the user form's choices without a reload", async () => {
    await renderPage({ groups: [200, GROUPS.filter((g) => g.organization === 'hub')] });
    expect(await optionsOf(userForm(), 'Organization')).toEqual(['HUB']);
    await createGroup('RC-EAST', 'RC');
    await within(groupForm()).findByRole('status');
    await choose(userForm(), 'Organization', 'RC');
    expect(await optionsOf(userForm(), 'Group')).toEqual(['RC-EAST']);
    expect(api.requestsTo('GET user/get_groups/')).toHaveLength(1);
  });
});

describe('live updates (docs/screens.md#live-updates)', () => {
  withFakeLiveStream();

  test('a group created elsewhere is offered at once, without a call; a reset fetches the groups again', async () => {
    await renderPage();
    act(() => useSession.setState({ features: ['live-events'] }));
    act(() => FakeEventSource.latest!.open());
    act(() =>
      FakeEventSource.latest!.emit(
        'groups',
        { action: 'created', name: 'HYD05', code: 'HYD05', organization: 'hub' },
        1,
      ),
    );
    act(() =>
      FakeEventSource.latest!.emit(
        'groups',
        { action: 'created', name: 'HYD05', code: 'HYD05', organization: 'hub' },
        2,
      ),
    );
    await choose(userForm(), 'Role', 'executive');
    await choose(userForm(), 'Organization', 'HUB');
    expect(await optionsOf(userForm(), 'Group')).toEqual(['BLR01', 'DEL02', 'HYD05']);
    expect(api.requestsTo('GET user/get_groups/')).toHaveLength(1);
    act(() => FakeEventSource.latest!.emit('reset', {}, 3));
    await waitFor(() => expect(api.requestsTo('GET user/get_groups/')).toHaveLength(2));
  });
});
