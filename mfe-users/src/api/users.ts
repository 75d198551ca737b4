// The users' calls (docs/screens.md#deactivate-users, #create-user-form): the list, creating a
// user, (de)activating, deleting and resetting a password. Each change fetches the list again.
import { getList, http, type UserCreatePayload, type UserListItem } from '@veritas/shared';
import { queryOptions, useMutation, useQueryClient } from '@veritas/shared/query';

const USERS_PATH = 'user/get_users/';

/** GET user/get_users/: the users the signed-in user may manage. */
export const usersQuery = queryOptions({
  queryKey: [USERS_PATH],
  queryFn: () => getList<UserListItem>(USERS_PATH),
});

export type UserAction = 'deactivate' | 'activate' | 'delete';

const ACTION_PATHS: Record<UserAction, string> = {
  deactivate: 'user/deactivate_user/',
  activate: 'user/activate_user/',
  delete: 'user/delete_user/',
};

/** The server's message of a change, when its answer has one. */
function messageOf(data: { message?: unknown } | undefined): string | undefined {
  return typeof data?.message === 'string' && data.message ? data.message : undefined;
}

/** A user changed: the list is fetched again. */
function useUsersChange<T>(change: (variables: T) => Promise<string | undefined>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => client.invalidateQueries({ queryKey: usersQuery.queryKey }),
  });
}

/** POST user/{deactivate,activate,delete}_user/ {user_id}; answers the server's message, if any. */
export function useUserAction() {
  return useUsersChange(async ({ action, userId }: { action: UserAction; userId: number }) => {
    const { data } = await http.post<{ message?: unknown }>(ACTION_PATHS[action], { user_id: userId });
    return messageOf(data);
  });
}

/** POST user/reset_password/ {user_id, new_password}; answers the server's message, if any. */
export async function resetPassword(userId: number, password: string): Promise<string | undefined> {
  const { data } = await http.post<{ message?: unknown }>('user/reset_password/', {
    user_id: userId,
    new_password: password,
  });
  return messageOf(data);
}

/**
 * POST user/create/. Its payload holds the new user's password: the console's query client keeps
 * no change once its caller lets it go (createQueryClient of @veritas/shared/query).
 */
export function useCreateUser() {
  return useUsersChange(async (payload: UserCreatePayload) => {
    await http.post('user/create/', payload);
    return undefined;
  });
}
