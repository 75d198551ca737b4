// Deactivate Users (route Deactivateuser, docs/screens.md#deactivate-users): the users the signed-in user may
// manage, with activate/deactivate and Reset password for everyone who reaches the screen and
// delete for super_admin. A row the server would refuse (one's own, a role one cannot assign) has
// its buttons disabled with the reason as their title; a reset is allowed exactly where
// (de)activation is.
// Default export: the shell's page.
import {
  canDeleteUser,
  PasswordDialog,
  roleLabel,
  serverMessage,
  useLiveEvents,
  userActionRefusal,
  useSession,
  type NewPasswords,
  type UserListItem,
} from '@veritas/shared';
import { useQueryClient, useQueryError, useQueryNow } from '@veritas/shared/query';
import { useState } from 'react';
import { resetPassword, usersQuery, useUserAction, type UserAction } from './api/users';
import { NoticeLine, useNotice } from './notice';
import './users.css';

const ACTIONS: Record<
  UserAction,
  { label: string; confirm: (username: string) => string; done: string; failed: string }
> = {
  deactivate: {
    label: 'Deactivate',
    confirm: (username) => `Deactivate user ${username}?`,
    done: 'User deactivated',
    failed: 'Failed to deactivate user',
  },
  activate: {
    label: 'Activate',
    confirm: (username) => `Activate user ${username}?`,
    done: 'User activated',
    failed: 'Failed to activate user',
  },
  delete: {
    label: 'Delete',
    confirm: (username) => `Delete user ${username}? This cannot be undone.`,
    done: 'User deleted',
    failed: 'Failed to delete user',
  },
};

export const LOAD_FAILED = 'Failed to load users';

const RESET = { label: 'Reset password', done: 'Password reset', failed: 'Failed to reset password' } as const;

const groupCodes = (user: UserListItem) => user.group_info.map((group) => group.name).join(', ') || 'N/A';

const NO_USERS: UserListItem[] = [];

export default function DeactivateUsersPage() {
  const role = useSession((state) => state.role);
  const me = useSession((state) => state.user);
  const withDelete = canDeleteUser(role);
  const { notice, show } = useNotice();
  const client = useQueryClient();
  const { data: users = NO_USERS, isPending: loading, error } = useQueryNow(usersQuery);
  useQueryError(error, () => show('error', LOAD_FAILED));
  const userAction = useUserAction();
  // docs/screens.md#live-updates: a user (de)activated elsewhere changes its row; a user created
  // (whose id and groups the event does not carry) or a reset fetches the list again.
  useLiveEvents('users', (message) => {
    if (message.type === 'reset' || message.data.action === 'created')
      return void client.invalidateQueries({ queryKey: usersQuery.queryKey });
    const { username, action } = message.data;
    client.setQueryData(usersQuery.queryKey, (current) =>
      current?.map((user) => (user.username === username ? { ...user, is_active: action === 'activated' } : user)),
    );
  });
  // Users whose action is under way: their buttons are disabled until it ends.
  const [busy, setBusy] = useState<ReadonlySet<number>>(new Set());
  // The user whose password the dialog is resetting.
  const [resetting, setResetting] = useState<UserListItem | null>(null);

  async function run(action: UserAction, user: UserListItem) {
    const { confirm, done, failed } = ACTIONS[action];
    if (!window.confirm(confirm(user.username))) return;
    setBusy((ids) => new Set(ids).add(user.id));
    try {
      // The list is fetched again before the buttons are enabled.
      show('success', (await userAction.mutateAsync({ action, userId: user.id })) ?? done);
    } catch (error) {
      show('error', serverMessage(error, ['error']) ?? failed);
    } finally {
      setBusy((ids) => {
        const next = new Set(ids);
        next.delete(user.id);
        return next;
      });
    }
  }

  /** Failures stay in the dialog, to correct and send again; success closes it with a notice. */
  async function reset(user: UserListItem, { password }: NewPasswords) {
    const message = await resetPassword(user.id, password);
    setResetting(null);
    show('success', message ?? RESET.done);
  }

  const columns = withDelete ? 6 : 5;

  return (
    <section className="vx-page">
      <h1 className="vx-page-title">Deactivate Users</h1>
      <NoticeLine notice={notice} />
      <div className="vx-table-wrap">
        <table className="vx-table um-table" aria-busy={loading || undefined}>
          <caption className="vx-sr-only">Users</caption>
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">Role</th>
              <th scope="col">Group Code</th>
              <th scope="col">Active</th>
              <th scope="col">Action</th>
              {withDelete && <th scope="col">Delete</th>}
            </tr>
          </thead>
          <tbody>
            {loading ? (
              <tr>
                <td colSpan={columns} className="um-table__note vx-muted">
                  Loading users…
                </td>
              </tr>
            ) : users.length === 0 ? (
              <tr>
                <td colSpan={columns} className="um-table__note vx-muted">
                  No users to show
                </td>
              </tr>
            ) : (
              users.map((user) => {
                const toggle: UserAction = user.is_active ? 'deactivate' : 'activate';
                const running = busy.has(user.id);
                const toggleRefusal = userActionRefusal('toggle', { user: me, role }, user);
                const deleteRefusal = userActionRefusal('delete', { user: me, role }, user);
                return (
                  <tr key={user.id} data-username={user.username}>
                    <td>{user.username}</td>
                    <td>{roleLabel(user.role)}</td>
                    <td>{groupCodes(user)}</td>
                    <td>{user.is_active ? 'Yes' : 'No'}</td>
                    <td>
                      <div className="um-actions">
                        <button
                          type="button"
                          className="vx-btn um-action"
                          disabled={running || toggleRefusal !== null}
                          title={toggleRefusal ?? undefined}
                          onClick={() => void run(toggle, user)}
                        >
                          {ACTIONS[toggle].label}
                        </button>
                        <button
                          type="button"
                          className="vx-btn um-action"
                          disabled={running || toggleRefusal !== null}
                          title={toggleRefusal ?? undefined}
                          onClick={() => setResetting(user)}
                        >
                          {RESET.label}
                        </button>
                      </div>
                    </td>
                    {withDelete && (
                      <td>
                        <button
                          type="button"
                          className="vx-btn vx-btn-danger um-action"
                          disabled={running || deleteRefusal !== null}
                          title={deleteRefusal ?? undefined}
                          onClick={() => void run('delete', user)}
                        >
                          {ACTIONS.delete.label}
                        </button>
                      </td>
                    )}
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
      {resetting && (
        <PasswordDialog
          title={`Reset password for ${resetting.username}`}
          username={resetting.username}
          submitLabel={RESET.label}
          failedText={RESET.failed}
          onSubmit={(passwords) => reset(resetting, passwords)}
          onClose={() => setResetting(null)}
        />
      )}
    </section>
  );
}
