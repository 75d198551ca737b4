// The pick list's calls (docs/architecture.md#server-features, 'device-pages'): the records of a
// set of filters a page at a time (keyset cursor), their total, records re-read by id, and the hubs.
// The list's pages and total are defined in @veritas/shared/device-list: the shell starts them with
// this remote's code (docs/architecture.md#first-rows).
import { http } from '@veritas/shared';
import { DEVICES_PATH, paramsOfKey, toDeviceRow, type DevicePageAnswer } from '@veritas/shared/device-list';
import { queryOptions } from '@veritas/shared/query';
import type { DeviceRow } from '../device-rows';

export {
  AHEAD,
  DEVICES_PATH,
  deviceCountQuery,
  devicePagesQuery,
  fetchDeviceCount,
  fetchDevicePage,
  MAX_PAGE_SIZE,
  PAGE_SIZE,
  type DevicePage,
  type PageParam,
} from '@veritas/shared/device-list';

const HUBS_PATH = 'api/devices/hubs/';

/** The most ids one call of devicesByIds may ask for (docs/events.md). */
export const MAX_IDS = 100;

/**
 * Re-reads records through the query of the list `key` (GET api/devices/?ids=&<its filters>): the
 * rows of those of `ids` (at most MAX_IDS) that match its filters; an id left out no longer does.
 */
export async function devicesByIds(key: string, ids: readonly number[]): Promise<DeviceRow[]> {
  const { data } = await http.get<DevicePageAnswer>(DEVICES_PATH, {
    params: { ...paramsOfKey(key), ids: ids.join(',') },
  });
  if (!data || !Array.isArray(data.records)) throw new Error(`${DEVICES_PATH} did not answer the records asked for`);
  return data.records.map(toDeviceRow);
}

/** GET api/devices/hubs/: the hub codes the Hub filter offers. */
export async function getDeviceHubs(): Promise<string[]> {
  const { data } = await http.get<{ hubs: string[] }>(HUBS_PATH);
  if (!Array.isArray(data?.hubs)) throw new Error(`${HUBS_PATH} did not answer a list of hubs`);
  return data.hubs.filter((hub): hub is string => typeof hub === 'string' && hub.trim() !== '');
}

export const hubsQuery = queryOptions({ queryKey: [HUBS_PATH], queryFn: getDeviceHubs });
