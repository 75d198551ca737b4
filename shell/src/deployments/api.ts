// The registry's calls of the Deployments page (docs/screens.md#deployments): the rollouts of every
// remote and the pages of their history, deploy tokens and allowed origins. A rollout change answers
// the remote's new state, which replaces its entry in the cached list, and its history is read again;
// tokens and origins are fetched again.
import {
  http,
  type AccessToken,
  type AccessTokenList,
  type AllowedOrigin,
  type AllowedOriginList,
  type CreatedToken,
  type RemoteDeployment,
  type RemoteDeploymentList,
  type RolloutHistoryPage,
  type TokenCreatePayload,
} from '@veritas/shared';
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@veritas/shared/query';

const REMOTES_PATH = 'registry/remotes/';
const TOKENS_PATH = 'registry/tokens/';
const ORIGINS_PATH = 'registry/origins/';

/** GET registry/remotes/: each remote's rollout, versions kept and history (admin, super_admin). */
export const deploymentsQuery = queryOptions({
  queryKey: [REMOTES_PATH],
  queryFn: async (): Promise<RemoteDeployment[]> => (await http.get<RemoteDeploymentList>(REMOTES_PATH)).data.remotes,
});

/** Changes asked for a page of a remote's history: as many as a deployment answers. */
export const HISTORY_PAGE_SIZE = 50;

/** The key of a remote's history pages: under the rollouts' key, so that reading them again reads these too. */
export const historyKey = (remote: string) => [REMOTES_PATH, remote, 'history/'] as const;

/** GET registry/remotes/{remote}/history/?before=&limit=: the changes older than `before` (null: the newest). */
export async function fetchHistoryPage(
  remote: string,
  before: string | null,
  signal?: AbortSignal,
): Promise<RolloutHistoryPage> {
  const path = `${REMOTES_PATH}${encodeURIComponent(remote)}/history/`;
  const params = { ...(before === null ? {} : { before }), limit: HISTORY_PAGE_SIZE };
  const { data } = await http.get<RolloutHistoryPage>(path, { params, signal });
  if (!data || !Array.isArray(data.changes)) throw new Error(`${path} did not answer a page of changes`);
  return { changes: data.changes, next: typeof data.next === 'string' && data.next ? data.next : null };
}

/** The pages of a remote's history, newest first, each read after the previous one's `next`. */
export function historyPagesQuery(remote: string) {
  return infiniteQueryOptions({
    queryKey: historyKey(remote),
    queryFn: ({ pageParam, signal }) => fetchHistoryPage(remote, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: RolloutHistoryPage) => last.next,
  });
}

/** GET registry/tokens/ (super_admin). */
export const tokensQuery = queryOptions({
  queryKey: [TOKENS_PATH],
  queryFn: async (): Promise<AccessToken[]> => (await http.get<AccessTokenList>(TOKENS_PATH)).data.tokens,
});

/** GET registry/origins/ (super_admin). */
export const originsQuery = queryOptions({
  queryKey: [ORIGINS_PATH],
  queryFn: async (): Promise<AllowedOrigin[]> => (await http.get<AllowedOriginList>(ORIGINS_PATH)).data.origins,
});

/** A change of a remote's rollout. */
export type RolloutChange =
  | { action: 'promote'; remote: string; version: number }
  | { action: 'canary'; remote: string; version: number; percent: number }
  | { action: 'stop-canary'; remote: string }
  | { action: 'rollback'; remote: string }
  | { action: 'retire'; remote: string };

function rolloutRequest(change: RolloutChange): [path: string, body: object] {
  const base = `${REMOTES_PATH}${encodeURIComponent(change.remote)}/`;
  switch (change.action) {
    case 'promote':
      return [`${base}promote/`, { version: change.version }];
    case 'canary':
      return [`${base}canary/`, { version: change.version, percent: change.percent }];
    case 'stop-canary':
      return [`${base}canary/stop/`, {}];
    case 'rollback':
      return [`${base}rollback/`, {}];
    case 'retire':
      return [`${base}retire/`, {}];
  }
}

/**
 * POST registry/remotes/{remote}/(promote|canary|canary/stop|rollback|retire)/: the answer replaces the
 * remote's entry, and the pages of its history read so far are read again (before the change is
 * done, so that the table shows it with the card).
 */
export function useRolloutChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (change: RolloutChange) => {
      const [path, body] = rolloutRequest(change);
      return (await http.post<RemoteDeployment>(path, body)).data;
    },
    onSuccess: (deployment) => {
      if (!deployment || typeof deployment !== 'object' || !('remote' in deployment))
        return client.invalidateQueries({ queryKey: deploymentsQuery.queryKey });
      client.setQueryData(deploymentsQuery.queryKey, (list) =>
        list?.some((d) => d.remote === deployment.remote)
          ? list.map((d) => (d.remote === deployment.remote ? deployment : d))
          : [...(list ?? []), deployment],
      );
      return client.invalidateQueries({ queryKey: historyKey(deployment.remote) });
    },
  });
}

/** A change of the tokens or origins: that list is fetched again. */
function useListChange<T, R>(queryKey: readonly unknown[], change: (variables: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => client.invalidateQueries({ queryKey }),
  });
}

/**
 * POST registry/tokens/: answers the token and its secret, shown this once. The secret is the
 * caller's to show: the console's query client keeps no change once its caller has taken the
 * answer (createQueryClient of @veritas/shared/query).
 */
export function useCreateToken() {
  return useListChange(
    tokensQuery.queryKey,
    async (payload: TokenCreatePayload) => (await http.post<CreatedToken>(TOKENS_PATH, payload)).data,
  );
}

/** POST registry/tokens/{id}/revoke/. */
export function useRevokeToken() {
  return useListChange(tokensQuery.queryKey, async (id: number) => {
    await http.post(`${TOKENS_PATH}${id}/revoke/`, {});
  });
}

/** POST registry/origins/ {origin}. */
export function useAddOrigin() {
  return useListChange(originsQuery.queryKey, async (origin: string) => {
    await http.post(ORIGINS_PATH, { origin });
  });
}

/** POST registry/origins/remove/ {origin}. */
export function useRemoveOrigin() {
  return useListChange(originsQuery.queryKey, async (origin: string) => {
    await http.post(`${ORIGINS_PATH}remove/`, { origin });
  });
}
