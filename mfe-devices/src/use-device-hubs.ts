// The Hub filter's choices (docs/screens.md#device-pick-list).
import { useLiveEvents } from '@veritas/shared';
import { useQueryClient, useQueryError, useQueryNow } from '@veritas/shared/query';
import { useRef } from 'react';
import { hubsQuery } from './api/devices';

const NO_HUBS: string[] = [];

// docs/errors.md#device-pick-list: failures are only logged.
const logHubsError = (error: unknown) => console.error('Failed to fetch hubs', error);

/**
 * The hub codes of the Hub filter (api/devices/hubs/), fetched once per visit; none while loading
 * or after a failure. An upload naming a hub not offered yet fetches them again.
 */
export function useDeviceHubs(): string[] {
  const client = useQueryClient();
  const { data: hubs = NO_HUBS, error } = useQueryNow(hubsQuery);
  useQueryError(error, logHubsError);
  const reload = () => void client.invalidateQueries({ queryKey: hubsQuery.queryKey });
  // An upload sends an event per batch stored: each new hub is asked for once.
  const asked = useRef(new Set<string>());
  useLiveEvents('records', (message) => {
    if (message.type === 'reset') return reload();
    if (message.data.action !== 'uploaded') return;
    const offered = new Set(hubs.map((hub) => hub.toLowerCase()));
    const fresh = message.data.hubs
      .map((hub) => hub.trim().toLowerCase())
      .filter((hub) => hub && !offered.has(hub) && !asked.current.has(hub));
    if (!fresh.length) return;
    for (const hub of fresh) asked.current.add(hub);
    reload();
  });
  return hubs;
}
