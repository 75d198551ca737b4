// The webhook endpoints' calls (docs/webhooks.md#the-calls, docs/screens.md#integrations): the
// list, adding one (its secret is answered this once), changing, deleting, rotating its secret,
// the test event, and each endpoint's delivery log with Redeliver and Replay. Each change of an
// endpoint fetches the list again; each new delivery fetches that endpoint's log again.
import { http } from '@veritas/shared';
import type {
  WebhookDeliveryPage,
  WebhookDeliveryState,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointPayload,
  WebhookReplayAnswer,
  WebhookSecretAnswer,
  WebhookTestAnswer,
} from '@veritas/shared/domain';
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient, type QueryKey } from '@veritas/shared/query';

export const ENDPOINTS_PATH = 'api/integrations/endpoints/';
export const DELIVERIES_PATH = 'api/integrations/deliveries/';
/** Deliveries per page of the log. */
export const LOG_PAGE_SIZE = 25;

/** GET api/integrations/endpoints/: every endpoint, newest first, never a secret. */
export const endpointsQuery = queryOptions({
  queryKey: [ENDPOINTS_PATH],
  queryFn: async ({ signal }): Promise<WebhookEndpoint[]> => {
    const { data } = await http.get<WebhookEndpointList>(ENDPOINTS_PATH, { signal });
    if (!data || !Array.isArray(data.endpoints))
      throw new Error(`${ENDPOINTS_PATH} did not answer a list of endpoints`);
    return data.endpoints;
  },
});

/** The key of every page of an endpoint's log, whatever its filter. */
export const deliveriesKey = (endpointId: number): QueryKey => [ENDPOINTS_PATH, endpointId, 'deliveries'];

/**
 * GET api/integrations/endpoints/{id}/deliveries/: the log newest first, `state` ('' for every
 * state), LOG_PAGE_SIZE a page; each page's `next` reads the page after.
 */
export const deliveriesQuery = (endpointId: number, state: WebhookDeliveryState | '') =>
  infiniteQueryOptions({
    queryKey: [...deliveriesKey(endpointId), state],
    initialPageParam: '',
    queryFn: async ({ pageParam, signal }): Promise<WebhookDeliveryPage> => {
      const path = `${ENDPOINTS_PATH}${endpointId}/deliveries/`;
      const { data } = await http.get<WebhookDeliveryPage>(path, {
        params: { state: state || undefined, after: pageParam || undefined, limit: String(LOG_PAGE_SIZE) },
        signal,
      });
      if (!data || !Array.isArray(data.deliveries)) throw new Error(`${path} did not answer a page of deliveries`);
      return data;
    },
    getNextPageParam: (page) => page.next ?? undefined,
  });

/** A change of the endpoints: the list (and what `alsoStale` names) is fetched again before the change counts as done. */
function useWebhooksChange<T, R>(change: (variables: T) => Promise<R>, alsoStale?: (variables: T) => QueryKey) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (_answer, variables) =>
      Promise.all([
        client.invalidateQueries({ queryKey: endpointsQuery.queryKey, exact: true }),
        alsoStale && client.invalidateQueries({ queryKey: alsoStale(variables) }),
      ]),
  });
}

/**
 * POST api/integrations/endpoints/: answers the endpoint and its secret. The secret is the caller's
 * to show once: the console's query client keeps no change once its caller has taken the answer
 * (createQueryClient of @veritas/shared/query).
 */
export function useCreateEndpoint() {
  return useWebhooksChange(
    async (payload: WebhookEndpointPayload) => (await http.post<WebhookSecretAnswer>(ENDPOINTS_PATH, payload)).data,
  );
}

/** POST api/integrations/endpoints/{id}/ with the whole payload: answers the endpoint as changed. */
export function useUpdateEndpoint() {
  return useWebhooksChange(
    async ({ id, payload }: { id: number; payload: WebhookEndpointPayload }) =>
      (await http.post<WebhookEndpoint>(`${ENDPOINTS_PATH}${id}/`, payload)).data,
    // Enabling it again sends the deliveries that waited.
    ({ id }) => deliveriesKey(id),
  );
}

/** POST api/integrations/endpoints/{id}/delete/, without a body. */
export function useDeleteEndpoint() {
  return useWebhooksChange(async (id: number) => {
    await http.post(`${ENDPOINTS_PATH}${id}/delete/`);
  });
}

/** POST api/integrations/endpoints/{id}/rotate/: the new secret, shown once (as a new endpoint's). */
export function useRotateSecret() {
  return useWebhooksChange(
    async (id: number) => (await http.post<WebhookSecretAnswer>(`${ENDPOINTS_PATH}${id}/rotate/`)).data,
  );
}

/** POST api/integrations/endpoints/{id}/test/: the test event queued, its message id answered. */
export function useSendTestEvent() {
  return useWebhooksChange(
    async (id: number) => (await http.post<WebhookTestAnswer>(`${ENDPOINTS_PATH}${id}/test/`)).data,
    (id) => deliveriesKey(id),
  );
}

/** POST api/integrations/deliveries/{id}/redeliver/: that message delivered again, now. */
export function useRedeliver() {
  return useWebhooksChange(
    async ({ deliveryId }: { deliveryId: number; endpointId: number }) => {
      await http.post(`${DELIVERIES_PATH}${deliveryId}/redeliver/`);
    },
    ({ endpointId }) => deliveriesKey(endpointId),
  );
}

/** POST api/integrations/endpoints/{id}/replay/ {since}: how many failed deliveries go again. */
export function useReplayFailed() {
  return useWebhooksChange(
    async ({ endpointId, since }: { endpointId: number; since: string }) =>
      (await http.post<WebhookReplayAnswer>(`${ENDPOINTS_PATH}${endpointId}/replay/`, { since })).data,
    ({ endpointId }) => deliveriesKey(endpointId),
  );
}
