// Deactivate Users (route Deactivateuser, docs/screens.md#deactivate-users): the users the signed-in
// user may manage, with activate/deactivate and Reset password for everyone who reaches the screen
// and delete for super_admin (users-table.tsx, user-actions.ts).
// Default export: the shell's page.
import {
  canDeleteUser,
  focusWasDropped,
  PasswordDialog,
  toast,
  useLiveEvents,
  useSession,
  type NewPasswords,
  type UserListItem,
} from '@veritas/shared';
import { refreshQueries, useQueryClient, useQueryError, useQueryNow } from '@veritas/shared/query';
import { useEffect, useRef, useState } from 'react';
import { resetPassword, usersQuery } from './api/users';
import { NoticeLine, useNotice } from './notice';
import { RESET, useUserActions } from './user-actions';
import { UsersTable } from './users-table';
import './users.css';

export const LOAD_FAILED = 'Failed to load users';

const NO_USERS: UserListItem[] = [];

export default function DeactivateUsersPage() {
  const role = useSession((state) => state.role);
  const me = useSession((state) => state.user);
  const { notice, show } = useNotice();
  const client = useQueryClient();
  const { data: users = NO_USERS, isPending: loading, error } = useQueryNow(usersQuery);
  // The failure takes the table's rows (announced there) and a toast: the notice line is the
  // actions' (docs/screens.md#tables).
  useQueryError(error, () => toast.error(LOAD_FAILED));
  const { running, run } = useUserActions(show);
  // A user deleted takes its row, and the Delete button that held the focus, with it: the focus goes
  // to the page's heading rather than fall to the page (docs/screens.md#dialogs' rule).
  const heading = useRef<HTMLHeadingElement>(null);
  const deleting = useRef<number | null>(null);
  useEffect(() => {
    if (deleting.current === null || users.some((user) => user.id === deleting.current)) return;
    deleting.current = null;
    if (focusWasDropped()) heading.current?.focus();
  }, [users]);
  // docs/screens.md#live-updates: a user (de)activated elsewhere changes its row; a user created
  // (whose id and groups the event does not carry) or a reset fetches the list again.
  useLiveEvents('users', (message) => {
    if (message.type === 'reset' || message.data.action === 'created')
      return void refreshQueries(client, { queryKey: usersQuery.queryKey });
    const { username, action } = message.data;
    client.setQueryData(usersQuery.queryKey, (current) =>
      current?.map((user) => (user.username === username ? { ...user, is_active: action === 'activated' } : user)),
    );
  });
  // The user whose password the dialog is resetting.
  const [resetting, setResetting] = useState<UserListItem | null>(null);

  /** Failures stay in the dialog, to correct and send again; success closes it with a notice. */
  async function reset(user: UserListItem, { password }: NewPasswords) {
    const message = await resetPassword(user.id, password);
    setResetting(null);
    show('success', message ?? RESET.done);
  }

  return (
    <section className="vx-page">
      <h1 className="vx-page-title" ref={heading} tabIndex={-1}>
        Deactivate Users
      </h1>
      <NoticeLine notice={notice} />
      <UsersTable
        users={users}
        loading={loading}
        error={error ? LOAD_FAILED : null}
        viewer={{ user: me, role }}
        withDelete={canDeleteUser(role)}
        running={running}
        onAction={(action, user) => {
          if (action === 'delete') deleting.current = user.id;
          void run(action, user);
        }}
        onReset={setResetting}
      />
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
