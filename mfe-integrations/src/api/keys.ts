// The API keys' calls (docs/screens.md#integrations): the list, creating a key (its secret is
// answered this once) and revoking one. Each change fetches the list again.
import { http, type AccessToken, type AccessTokenList, type CreatedToken } from '@veritas/shared';
import type { ApiKeyCreatePayload } from '@veritas/shared/domain';
import { queryOptions, useMutation, useQueryClient } from '@veritas/shared/query';

export const KEYS_PATH = 'api/integrations/keys/';

/** GET api/integrations/keys/: every API key, newest first (admin, super_admin). */
export const keysQuery = queryOptions({
  queryKey: [KEYS_PATH],
  queryFn: async ({ signal }): Promise<AccessToken[]> => {
    const { data } = await http.get<AccessTokenList>(KEYS_PATH, { signal });
    if (!data || !Array.isArray(data.tokens)) throw new Error(`${KEYS_PATH} did not answer a list of keys`);
    return data.tokens;
  },
});

/** A change of the keys: the list is fetched again before the change counts as done. */
function useKeysChange<T, R>(change: (variables: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => client.invalidateQueries({ queryKey: keysQuery.queryKey }),
  });
}

/**
 * POST api/integrations/keys/: answers the key and its secret. The secret is the caller's to show
 * once: the console's query client keeps no change once its caller has taken the answer
 * (createQueryClient of @veritas/shared/query).
 */
export function useCreateKey() {
  return useKeysChange(
    async (payload: ApiKeyCreatePayload) => (await http.post<CreatedToken>(KEYS_PATH, payload)).data,
  );
}

/** POST api/integrations/keys/{id}/revoke/, without a body: answers the key as revoked. */
export function useRevokeKey() {
  return useKeysChange(async (id: number) => (await http.post<AccessToken>(`${KEYS_PATH}${id}/revoke/`)).data);
}
