import { useSession, type Role, type UserListItem } from '@veritas/shared';
import {
  FakeEventSource,
  mockApi,
  type MockApi,
  type MockHandler,
  withFakeLiveStream,
  withQueryClient,
} from '@veritas/shared/testing';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import DeactivateUsersPage from './deactivate-users-page';

const asha: UserListItem = {
  id: 7,
  username: 'asha',
  role: 'executive',
  is_active: true,
  group_info: [{ name: 'BLR01' }],
};
const ravi: UserListItem = {
  id: 8,
  username: 'ravi',
  role: 'operators',
  is_active: false,
  group_info: [{ name: 'DEL02' }, { name: 'MUM03' }],
};
const meena: UserListItem = { id: 9, username: 'meena', role: 'central_ops', is_active: true, group_info: [] };

let api: MockApi;
let confirmSpy: jest.SpyInstance<boolean, [message?: string]>;

beforeEach(() => {
  confirmSpy = jest.spyOn(window, 'confirm').mockReturnValue(true);
});
afterEach(() => {
  api.restore();
  confirmSpy.mockRestore();
});

async function renderPage({
  role = 'admin',
  users = [200, [asha, ravi, meena]],
}: { role?: Role; users?: MockHandler } = {}) {
  useSession.getState().setSession({ user: 'boss', role, hubCode: null });
  api = mockApi().on('GET user/get_users/', users);
  render(<DeactivateUsersPage />, { wrapper: withQueryClient() });
  await waitFor(() => expect(screen.queryByText('Loading users…')).not.toBeInTheDocument());
}

const table = () => screen.getByRole('table', { name: 'Users' });
const rowOf = (username: string) => table().querySelector<HTMLElement>(`tr[data-username="${username}"]`)!;
const cells = (username: string) =>
  within(rowOf(username))
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('users table', () => {
  test('shows a loading state while fetching, then the users from user/get_users/', async () => {
    useSession.getState().setSession({ user: 'boss', role: 'admin', hubCode: null });
    api = mockApi().on('GET user/get_users/', [200, [asha]]);
    render(<DeactivateUsersPage />, { wrapper: withQueryClient() });
    expect(screen.getByRole('heading', { level: 1, name: 'Deactivate Users' })).toBeInTheDocument();
    expect(screen.getByText('Loading users…')).toBeInTheDocument();
    expect(await screen.findByText('asha')).toBeInTheDocument();
    expect(api.requestsTo('GET user/get_users/')).toHaveLength(1);
  });

  test('columns: Username, Role (Wishmaster for operators), Group Code (joined names or N/A), Active, Action', async () => {
    await renderPage();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Username', 'Role', 'Group Code', 'Active', 'Action']);
    expect(cells('asha')).toEqual(['asha', 'executive', 'BLR01', 'Yes', 'DeactivateReset password']);
    expect(cells('ravi')).toEqual(['ravi', 'Wishmaster', 'DEL02, MUM03', 'No', 'ActivateReset password']);
    expect(cells('meena')).toEqual(['meena', 'central_ops', 'N/A', 'Yes', 'DeactivateReset password']);
  });

  test('the Delete column is shown only to super_admin', async () => {
    await renderPage({ role: 'super_admin' });
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Username', 'Role', 'Group Code', 'Active', 'Action', 'Delete']);
    expect(within(rowOf('asha')).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
  });

  test.each<Role>(['admin', 'central_ops', 'incharge'])('%s sees no Delete column or button', async (role) => {
    await renderPage({ role });
    expect(within(table()).queryByRole('columnheader', { name: 'Delete' })).not.toBeInTheDocument();
    expect(within(table()).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  test("server-side rights (docs/screens.md#server-side-rights): one's own row and roles the signed-in user cannot assign have their buttons disabled, with the reason", async () => {
    const boss: UserListItem = {
      id: 1,
      username: 'boss',
      role: 'incharge',
      is_active: true,
      group_info: [{ name: 'BLR01' }],
    };
    await renderPage({ role: 'incharge', users: [200, [boss, asha, ravi, meena]] });
    const toggleOf = (username: string) => within(rowOf(username)).getAllByRole('button')[0]!;
    expect(toggleOf('boss')).toBeDisabled();
    expect(toggleOf('boss')).toHaveAttribute('title', 'You cannot change your own account');
    expect(toggleOf('meena')).toBeDisabled();
    expect(toggleOf('meena')).toHaveAttribute('title', 'Your role cannot manage users with the role central_ops');
    // A disabled button takes no focus: the reason is written in the row and is the buttons' description.
    for (const [username, reason] of [
      ['boss', 'You cannot change your own account'],
      ['meena', 'Your role cannot manage users with the role central_ops'],
    ] as const) {
      expect(within(rowOf(username)).getByText(reason)).toBeVisible();
      for (const button of within(rowOf(username)).getAllByRole('button')) {
        expect(button).toHaveAccessibleDescription(reason);
      }
    }
    expect(toggleOf('asha')).not.toHaveAccessibleDescription();
    expect(toggleOf('asha')).toBeEnabled();
    expect(toggleOf('ravi')).toBeEnabled();
    await userEvent.click(toggleOf('meena'));
    expect(confirmSpy).not.toHaveBeenCalled();
  });

  test('Reset password is enabled exactly where the (de)activate button is, with the same reason', async () => {
    const boss: UserListItem = {
      id: 1,
      username: 'boss',
      role: 'incharge',
      is_active: true,
      group_info: [{ name: 'BLR01' }],
    };
    await renderPage({ role: 'incharge', users: [200, [boss, asha, ravi, meena]] });
    for (const username of ['boss', 'asha', 'ravi', 'meena']) {
      const [toggle, reset] = within(rowOf(username)).getAllByRole('button');
      expect(reset).toHaveTextContent('Reset password');
      expect(reset!.hasAttribute('disabled')).toBe(toggle!.hasAttribute('disabled'));
      expect(reset!.getAttribute('title')).toBe(toggle!.getAttribute('title'));
    }
    expect(within(rowOf('asha')).getByRole('button', { name: 'Reset password' })).toBeEnabled();
    expect(within(rowOf('meena')).getByRole('button', { name: 'Reset password' })).toBeDisabled();
    expect(within(rowOf('boss')).getByRole('button', { name: 'Reset password' })).toBeDisabled();
  });

  test('super_admin cannot delete or deactivate their own account from the table', async () => {
    const boss: UserListItem = { id: 1, username: 'boss', role: 'super_admin', is_active: true, group_info: [] };
    await renderPage({ role: 'super_admin', users: [200, [boss, asha]] });
    within(rowOf('boss'))
      .getAllByRole('button')
      .forEach((button) => expect(button).toBeDisabled());
    within(rowOf('asha'))
      .getAllByRole('button')
      .forEach((button) => expect(button).toBeEnabled());
  });

  test.each<[string, MockHandler]>([
    ['an error status', [500, { detail: 'boom' }]],
    ['a non-list answer', [200, { users: [] }]],
  ])(
    "%s shows 'Failed to load users' in place of the rows, not 'No users to show', and no spinner",
    async (_case, reply) => {
      await renderPage({ users: reply });
      const table = screen.getByRole('table', { name: 'Users' });
      expect(within(table).getByRole('alert')).toHaveTextContent('Failed to load users');
      expect(screen.getAllByRole('alert')).toHaveLength(1);
      expect(screen.queryByText('No users to show')).not.toBeInTheDocument();
      expect(table).not.toHaveAttribute('aria-busy');
    },
  );
});

const ACTIONS = [
  {
    action: 'deactivate',
    user: asha,
    button: 'Deactivate',
    confirm: 'Deactivate user asha?',
    fallback: 'Failed to deactivate user',
  },
  {
    action: 'activate',
    user: ravi,
    button: 'Activate',
    confirm: 'Activate user ravi?',
    fallback: 'Failed to activate user',
  },
  {
    action: 'delete',
    user: asha,
    button: 'Delete',
    confirm: 'Delete user asha? This cannot be undone.',
    fallback: 'Failed to delete user',
  },
];

test("a user deleted takes its row and Delete button: the focus goes to the page's heading, not the page", async () => {
  let deleted = false;
  await renderPage({ role: 'super_admin', users: () => [200, deleted ? [ravi, meena] : [asha, ravi, meena]] });
  api.on('POST user/delete_user/', () => {
    deleted = true;
    return [200, { message: 'User asha deleted' }];
  });
  within(rowOf('asha')).getByRole('button', { name: 'Delete' }).focus();
  await userEvent.keyboard('{Enter}');
  await waitFor(() => expect(screen.queryByText('asha')).not.toBeInTheDocument());
  expect(screen.getByRole('heading', { level: 1, name: 'Deactivate Users' })).toHaveFocus();
});

describe.each(ACTIONS)('$action', ({ action, user, button, confirm, fallback }) => {
  const route = `POST user/${action}_user/`;
  const click = () => userEvent.click(within(rowOf(user.username)).getByRole('button', { name: button }));

  test('a cancelled confirmation sends nothing', async () => {
    await renderPage({ role: 'super_admin' });
    confirmSpy.mockReturnValue(false);
    await click();
    expect(confirmSpy).toHaveBeenCalledWith(confirm);
    expect(api.requestsTo(route)).toHaveLength(0);
    expect(api.requestsTo('GET user/get_users/')).toHaveLength(1);
  });

  test("an accepted confirmation sends {user_id}, shows the server's message and reloads the list", async () => {
    await renderPage({ role: 'super_admin' });
    api.on(route, [200, { message: `User ${user.username} done` }]);
    await click();
    expect(await screen.findByRole('status')).toHaveTextContent(`User ${user.username} done`);
    expect(confirmSpy).toHaveBeenCalledWith(confirm);
    expect(api.requestsTo(route).map((r) => r.body)).toEqual([{ user_id: user.id }]);
    await waitFor(() => expect(api.requestsTo('GET user/get_users/')).toHaveLength(2));
  });

  test("a failure shows the server's error field", async () => {
    await renderPage({ role: 'super_admin' });
    api.on(route, [403, { error: 'You cannot do that to your own account.', detail: 'ignored' }]);
    await click();
    expect(await screen.findByRole('alert')).toHaveTextContent('You cannot do that to your own account.');
    expect(api.requestsTo('GET user/get_users/')).toHaveLength(1);
  });

  test(`a failure without an error field shows '${fallback}'`, async () => {
    await renderPage({ role: 'super_admin' });
    api.on(route, [500, { detail: 'not the error field' }]);
    await click();
    expect(await screen.findByRole('alert')).toHaveTextContent(fallback);
  });

  test("the row's buttons are marked unavailable while its request runs, the pressed one keeping the focus (docs/screens.md#buttons)", async () => {
    await renderPage({ role: 'super_admin' });
    let answer: (reply: [number, unknown]) => void = () => {};
    api.on(route, () => new Promise((resolve) => (answer = resolve)));
    await click();
    const buttons = within(rowOf(user.username)).getAllByRole('button');
    buttons.forEach((b) => expect(b).toHaveAttribute('aria-disabled', 'true'));
    expect(buttons).toContain(document.activeElement);
    expect(within(rowOf('meena')).getByRole('button', { name: 'Deactivate' })).not.toHaveAttribute('aria-disabled');
    answer([200, { message: 'ok' }]);
    await waitFor(() =>
      within(rowOf(user.username))
        .getAllByRole('button')
        .forEach((b) => expect(b).not.toHaveAttribute('aria-disabled')),
    );
  });
});

describe('Reset password', () => {
  const openFor = async (username: string) => {
    await userEvent.click(within(rowOf(username)).getByRole('button', { name: 'Reset password' }));
    return screen.findByRole('dialog', { name: `Reset password for ${username}` });
  };
  const send = async (dialog: HTMLElement, password: string, confirm = password) => {
    await userEvent.type(within(dialog).getByLabelText('New password'), password);
    await userEvent.type(within(dialog).getByLabelText('Confirm new password'), confirm);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset password' }));
  };

  test('opens a dialog named after the user, with the new password twice and the rule, no current password', async () => {
    await renderPage();
    const dialog = await openFor('asha');
    expect(within(dialog).queryByLabelText('Current password')).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText('New password')).toHaveFocus();
    expect(within(dialog).getByLabelText('New password')).toHaveAccessibleDescription(
      'At least 8 characters, not the username and not a commonly used password.',
    );
    expect(confirmSpy).not.toHaveBeenCalled();
  });

  test("the rule is checked against the user's username and the two passwords must match, before anything is sent", async () => {
    const kiran: UserListItem = {
      id: 10,
      username: 'kiran_blr',
      role: 'executive',
      is_active: true,
      group_info: [{ name: 'BLR01' }],
    };
    await renderPage({ users: [200, [asha, kiran]] });
    api.on('POST user/reset_password/', [200, { message: 'ok' }]);
    const dialog = await openFor('kiran_blr');
    await send(dialog, 'KIRAN_BLR');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Password must not be the username');
    await userEvent.clear(within(dialog).getByLabelText('New password'));
    await userEvent.clear(within(dialog).getByLabelText('Confirm new password'));
    await send(dialog, 'Fresh-Pass-42', 'Fresh-Pass-24');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('The new passwords do not match');
    expect(api.requestsTo('POST user/reset_password/')).toHaveLength(0);
  });

  test("sends {user_id, new_password}, closes the dialog and shows the server's message; focus returns to the row's button", async () => {
    await renderPage();
    api.on('POST user/reset_password/', [200, { message: 'Password of user asha reset successfully.' }]);
    const dialog = await openFor('asha');
    await send(dialog, 'Fresh-Pass-42');
    expect(await screen.findByRole('status')).toHaveTextContent('Password of user asha reset successfully.');
    expect(api.requestsTo('POST user/reset_password/').map((r) => r.body)).toEqual([
      { user_id: asha.id, new_password: 'Fresh-Pass-42' },
    ]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(rowOf('asha')).getByRole('button', { name: 'Reset password' })).toHaveFocus();
  });

  test("a refusal shows the server's error in the dialog, which stays open and usable", async () => {
    await renderPage();
    api.on('POST user/reset_password/', [
      403,
      { error: 'You do not have permission to reset the password of this user.', detail: 'x' },
    ]);
    const dialog = await openFor('asha');
    await send(dialog, 'Fresh-Pass-42');
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent(
        'You do not have permission to reset the password of this user.',
      ),
    );
    expect(within(dialog).getByRole('button', { name: 'Reset password' })).toBeEnabled();
    expect(within(dialog).getByLabelText('New password')).toHaveValue('Fresh-Pass-42');
  });

  test("a failure without an error field shows 'Failed to reset password'", async () => {
    await renderPage();
    api.on('POST user/reset_password/', [500, undefined]);
    const dialog = await openFor('asha');
    await send(dialog, 'Fresh-Pass-42');
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Failed to reset password'));
  });
});

describe('live updates (docs/screens.md#live-updates)', () => {
  withFakeLiveStream();
  /** The server offers live-events: the stream opens. */
  function openStream() {
    act(() => useSession.setState({ features: ['live-events'] }));
    act(() => FakeEventSource.latest!.open());
  }
  const send = (data: unknown) => act(() => FakeEventSource.latest!.emit('users', data, 1));

  test('a user deactivated or activated elsewhere changes its row without a call', async () => {
    await renderPage();
    openStream();
    send({ action: 'deactivated', username: 'asha', role: 'executive' });
    send({ action: 'activated', username: 'ravi', role: 'operators' });
    await waitFor(() => expect(cells('asha')[3]).toBe('No'));
    expect(cells('ravi')[3]).toBe('Yes');
    expect(api.requestsTo('GET user/get_users/')).toHaveLength(1);
  });

  test('a user created elsewhere fetches the list again', async () => {
    const lily: UserListItem = { id: 12, username: 'lily', role: 'executive', is_active: true, group_info: [] };
    await renderPage({ users: () => [200, api.requestsTo('GET user/get_users/').length > 1 ? [asha, lily] : [asha]] });
    openStream();
    send({ action: 'created', username: 'lily', role: 'executive' });
    await waitFor(() => expect(rowOf('lily')).not.toBeNull());
    expect(api.requestsTo('GET user/get_users/')).toHaveLength(2);
  });
});
