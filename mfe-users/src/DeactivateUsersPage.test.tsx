import { useSession, type Role, type UserListItem } from '@veritas/shared';
import { mockApi, type MockApi, type MockHandler } from '@veritas/shared/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import DeactivateUsersPage from './DeactivateUsersPage';

const asha: UserListItem = { id: 7, username: 'asha', role: 'executive', is_active: true, group_info: [{ name: 'BLR01' }] };
const ravi: UserListItem = { id: 8, username: 'ravi', role: 'operators', is_active: false, group_info: [{ name: 'DEL02' }, { name: 'MUM03' }] };
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

async function renderPage({ role = 'admin', users = [200, [asha, ravi, meena]] }: { role?: Role; users?: MockHandler } = {}) {
  useSession.getState().setSession({ user: 'boss', role, hubCode: null });
  api = mockApi().on('GET user/get_users/', users);
  render(<DeactivateUsersPage />);
  await waitFor(() => expect(screen.queryByText('Loading users…')).not.toBeInTheDocument());
}

const table = () => screen.getByRole('table', { name: 'Users' });
const rowOf = (username: string) => table().querySelector<HTMLElement>(`tr[data-username="${username}"]`)!;
const cells = (username: string) => within(rowOf(username)).getAllByRole('cell').map((cell) => cell.textContent);

describe('users table', () => {
  test('shows a loading state while fetching, then the users from user/get_users/', async () => {
    useSession.getState().setSession({ user: 'boss', role: 'admin', hubCode: null });
    api = mockApi().on('GET user/get_users/', [200, [asha]]);
    render(<DeactivateUsersPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Deactivate Users' })).toBeInTheDocument();
    expect(screen.getByText('Loading users…')).toBeInTheDocument();
    expect(await screen.findByText('asha')).toBeInTheDocument();
    expect(api.requestsTo('GET user/get_users/')).toHaveLength(1);
  });

  test('columns: Username, Role (Wishmaster for operators), Group Code (joined names or N/A), Active, Action', async () => {
    await renderPage();
    expect(within(table()).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Username', 'Role', 'Group Code', 'Active', 'Action']);
    expect(cells('asha')).toEqual(['asha', 'executive', 'BLR01', 'Yes', 'Deactivate']);
    expect(cells('ravi')).toEqual(['ravi', 'Wishmaster', 'DEL02, MUM03', 'No', 'Activate']);
    expect(cells('meena')).toEqual(['meena', 'central_ops', 'N/A', 'Yes', 'Deactivate']);
  });

  test('the Delete column is shown only to super_admin', async () => {
    await renderPage({ role: 'super_admin' });
    expect(within(table()).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Username',
      'Role',
      'Group Code',
      'Active',
      'Action',
      'Delete',
    ]);
    expect(within(rowOf('asha')).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
  });

  test.each<Role>(['admin', 'central_ops', 'incharge'])('%s sees no Delete column or button', async (role) => {
    await renderPage({ role });
    expect(within(table()).queryByRole('columnheader', { name: 'Delete' })).not.toBeInTheDocument();
    expect(within(table()).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  test("CONTRACT roles: one's own row and roles the signed-in user cannot assign have their buttons disabled, with the reason", async () => {
    const boss: UserListItem = { id: 1, username: 'boss', role: 'incharge', is_active: true, group_info: [{ name: 'BLR01' }] };
    await renderPage({ role: 'incharge', users: [200, [boss, asha, ravi, meena]] });
    const toggleOf = (username: string) => within(rowOf(username)).getAllByRole('button')[0]!;
    expect(toggleOf('boss')).toBeDisabled();
    expect(toggleOf('boss')).toHaveAttribute('title', 'You cannot change your own account');
    expect(toggleOf('meena')).toBeDisabled();
    expect(toggleOf('meena')).toHaveAttribute('title', 'Your role cannot manage users with the role central_ops');
    expect(toggleOf('asha')).toBeEnabled();
    expect(toggleOf('ravi')).toBeEnabled();
    await userEvent.click(toggleOf('meena'));
    expect(confirmSpy).not.toHaveBeenCalled();
  });

  test('super_admin cannot delete or deactivate their own account from the table', async () => {
    const boss: UserListItem = { id: 1, username: 'boss', role: 'super_admin', is_active: true, group_info: [] };
    await renderPage({ role: 'super_admin', users: [200, [boss, asha]] });
    within(rowOf('boss')).getAllByRole('button').forEach((button) => expect(button).toBeDisabled());
    within(rowOf('asha')).getAllByRole('button').forEach((button) => expect(button).toBeEnabled());
  });

  test.each<[string, MockHandler]>([
    ['an error status', [500, { detail: 'boom' }]],
    ['a non-list answer', [200, { users: [] }]],
  ])("%s shows 'Failed to load users' and no spinner", async (_case, reply) => {
    await renderPage({ users: reply });
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load users');
    expect(screen.getByText('No users to show')).toBeInTheDocument();
  });
});

const ACTIONS = [
  { action: 'deactivate', user: asha, button: 'Deactivate', confirm: 'Deactivate user asha?', fallback: 'Failed to deactivate user' },
  { action: 'activate', user: ravi, button: 'Activate', confirm: 'Activate user ravi?', fallback: 'Failed to activate user' },
  { action: 'delete', user: asha, button: 'Delete', confirm: 'Delete user asha? This cannot be undone.', fallback: 'Failed to delete user' },
];

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

  test("the row's buttons are disabled while its request runs", async () => {
    await renderPage({ role: 'super_admin' });
    let answer: (reply: [number, unknown]) => void = () => {};
    api.on(route, () => new Promise((resolve) => (answer = resolve)));
    await click();
    const buttons = within(rowOf(user.username)).getAllByRole('button');
    buttons.forEach((b) => expect(b).toBeDisabled());
    expect(within(rowOf('meena')).getByRole('button', { name: 'Deactivate' })).toBeEnabled();
    answer([200, { message: 'ok' }]);
    await waitFor(() => within(rowOf(user.username)).getAllByRole('button').forEach((b) => expect(b).toBeEnabled()));
  });
});
