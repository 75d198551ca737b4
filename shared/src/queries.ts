// Queries more than one remote reads, so that they share one cache entry and one definition. Plain
// options objects: this module is part of the main entry, which the login page loads, and TanStack
// Query itself comes with @veritas/shared/query.
import { getList } from './http';
import type { DeviceRecord, Group } from './types';

/**
 * The first part of the key of every query read from the device records (the pick list, the
 * dashboard's figures): an upload changes records anywhere, so it invalidates them all at once.
 */
export const RECORDS_KEY = 'records';

const STATUS_PATH = 'api/get_status/';
const GROUPS_PATH = 'user/get_groups/';

interface ListQuery<T, K extends readonly unknown[]> {
  queryKey: K;
  queryFn: () => Promise<T[]>;
}

/** GET api/get_status/: every record, as the spec's server answers them (a page filters and counts them itself). */
export const statusQuery: ListQuery<DeviceRecord, readonly [typeof RECORDS_KEY, typeof STATUS_PATH]> = {
  queryKey: [RECORDS_KEY, STATUS_PATH],
  queryFn: () => getList<DeviceRecord>(STATUS_PATH),
};

/** GET user/get_groups/: the groups (the users' forms offer them, the dashboard's hubs are among them). */
export const groupsQuery: ListQuery<Group, readonly [typeof GROUPS_PATH]> = {
  queryKey: [GROUPS_PATH],
  queryFn: () => getList<Group>(GROUPS_PATH),
};
