// The groups' calls (docs/screens.md#create-user-and-create-group): the list both forms offer,
// and creating a group, which puts it in that list at once.
import { groupsQuery, http, type Group } from '@veritas/shared';
import { useMutation, useQueryClient, type QueryClient } from '@veritas/shared/query';

/** Puts `group` in the list loaded, once: the live event of a group created here follows its form's answer. */
export function addGroup(client: QueryClient, group: Group): void {
  client.setQueryData<Group[]>(groupsQuery.queryKey, (current) =>
    !current || current.some((known) => known.code === group.code) ? current : [...current, group],
  );
}

/** POST user/create_group/ {name, code, organization}. */
export function useCreateGroup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (group: Group) => http.post('user/create_group/', group),
    onSuccess: (_answer, group) => addGroup(client, group),
  });
}
