// The actions of a row of Deactivate Users (docs/screens.md#deactivate-users): each asks the
// browser's confirmation first, as the spec asks, and disables the row's buttons until it ends.
import { serverMessage, type UserListItem } from '@veritas/shared';
import { useIdsUnderWay } from '@veritas/shared/table';
import { useUserAction, type UserAction } from './api/users';
import type { Notice } from './notice';

export const ACTIONS: Record<
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

export const RESET = { label: 'Reset password', done: 'Password reset', failed: 'Failed to reset password' } as const;

/** `running(id)`: that user's action is under way; `run` confirms, runs it and says how it went. */
export function useUserActions(show: (kind: Notice['kind'], text: string) => void) {
  const userAction = useUserAction();
  const { isUnderWay, whileUnderWay } = useIdsUnderWay();

  async function run(action: UserAction, user: UserListItem) {
    const { confirm, done, failed } = ACTIONS[action];
    if (!window.confirm(confirm(user.username))) return;
    await whileUnderWay(user.id, async () => {
      try {
        // The list is fetched again before the buttons are enabled.
        show('success', (await userAction.mutateAsync({ action, userId: user.id })) ?? done);
      } catch (error) {
        show('error', serverMessage(error, ['error']) ?? failed);
      }
    });
  }

  return { running: isUnderWay, run };
}
