// The table of Deactivate Users (docs/screens.md#deactivate-users): a row the server would refuse
// (one's own, a role one cannot assign) has its buttons disabled, the reason written under them
// and read as their description (a disabled button takes no focus, so a title alone would reach
// only a mouse); a reset is allowed exactly where (de)activation is.
import { BusyButton, roleLabel, userActionRefusal, type Role, type UserListItem } from '@veritas/shared';
import { DataTable, type Column } from '@veritas/shared/table';
import type { UserAction } from './api/users';
import { ACTIONS, RESET } from './user-actions';

const groupCodes = (user: UserListItem) => user.group_info.map((group) => group.name).join(', ') || 'N/A';

export interface UsersTableProps {
  users: readonly UserListItem[];
  loading: boolean;
  /** Why the list could not be loaded, shown in place of the rows; null when it was. */
  error: string | null;
  /** The signed-in user, whose rights decide which buttons are enabled. */
  viewer: { user: string | null; role: Role | null };
  /** The Delete column (super_admin). */
  withDelete: boolean;
  running(userId: number): boolean;
  onAction(action: UserAction, user: UserListItem): void;
  onReset(user: UserListItem): void;
}

const refusalId = (user: UserListItem, action: 'toggle' | 'delete') => `um-refusal-${action}-${user.id}`;

export function UsersTable({ users, loading, error, viewer, withDelete, running, onAction, onReset }: UsersTableProps) {
  const toggleRefusal = (user: UserListItem) => userActionRefusal('toggle', viewer, user);
  const columns: Column<UserListItem>[] = [
    { header: 'Username', cell: (user) => user.username },
    { header: 'Role', cell: (user) => roleLabel(user.role) },
    { header: 'Group Code', cell: groupCodes },
    { header: 'Active', cell: (user) => (user.is_active ? 'Yes' : 'No') },
    {
      header: 'Action',
      cell: (user) => {
        const toggle: UserAction = user.is_active ? 'deactivate' : 'activate';
        const refusal = toggleRefusal(user);
        const described = refusal === null ? undefined : refusalId(user, 'toggle');
        return (
          <div className="um-actions">
            <BusyButton
              className="vx-btn um-action"
              disabled={refusal !== null}
              busy={running(user.id)}
              title={refusal ?? undefined}
              aria-describedby={described}
              onClick={() => onAction(toggle, user)}
            >
              {ACTIONS[toggle].label}
            </BusyButton>
            <BusyButton
              className="vx-btn um-action"
              disabled={refusal !== null}
              busy={running(user.id)}
              title={refusal ?? undefined}
              aria-describedby={described}
              onClick={() => onReset(user)}
            >
              {RESET.label}
            </BusyButton>
            {refusal !== null && (
              <span id={described} className="vx-hint um-refusal">
                {refusal}
              </span>
            )}
          </div>
        );
      },
    },
  ];
  if (withDelete)
    columns.push({
      header: 'Delete',
      cell: (user) => {
        const refusal = userActionRefusal('delete', viewer, user);
        // The same reason as the row's other buttons (one's own account) is written once.
        const shared = refusal !== null && refusal === toggleRefusal(user);
        const described = refusal === null ? undefined : refusalId(user, shared ? 'toggle' : 'delete');
        return (
          <>
            <BusyButton
              className="vx-btn vx-btn-danger um-action"
              disabled={refusal !== null}
              busy={running(user.id)}
              title={refusal ?? undefined}
              aria-describedby={described}
              onClick={() => onAction('delete', user)}
            >
              {ACTIONS.delete.label}
            </BusyButton>
            {refusal !== null && !shared && (
              <span id={described} className="vx-hint um-refusal">
                {refusal}
              </span>
            )}
          </>
        );
      },
    });

  return (
    <DataTable
      caption="Users"
      captionClassName="vx-sr-only"
      className="vx-table um-table"
      noteClassName="um-table__note vx-muted"
      columns={columns}
      rows={users}
      rowKey={(user) => user.id}
      rowAttributes={(user) => ({ 'data-username': user.username })}
      loading={loading && 'Loading users…'}
      error={error}
      empty="No users to show"
    />
  );
}
