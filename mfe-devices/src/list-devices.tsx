// Device Pick List / Stats (route ListDevices, docs/screens.md#device-pick-list): every device expectation with its
// verification progress, filterable by tracking ID and hub. Default export: the shell's page.
import {
  ListCount,
  Modal,
  SearchSelect,
  statusQuery,
  useLiveRecords,
  useSession,
  type DeviceRecord,
} from '@veritas/shared';
import { useQueryClient, useQueryError, useQueryNow } from '@veritas/shared/query';
import { useDeferredValue, useMemo, useState } from 'react';
import { DeviceDetails } from './device-details';
import { filterRows, hubOptions, toDeviceRows } from './device-rows';
import { DeviceTable } from './device-table';
import { PagedDeviceList } from './paged-device-list';
import { TrackingIdFilter } from './tracking-id-filter';
import './list-devices.css';

const NO_RECORDS: DeviceRecord[] = [];

/**
 * docs/architecture.md#server-features: a server offering 'device-pages' serves the list a page
 * at a time, filtered in the database; otherwise every record is fetched and filtered here.
 */
export default function ListDevices() {
  const paged = useSession((s) => s.features.includes('device-pages'));
  return paged ? <PagedDeviceList /> : <AllDevicesList />;
}

/** Records of live events are put in the list at most this often (docs/screens.md#live-updates). */
const APPLY_EVERY_MS = 200;

/**
 * The list from api/get_status/: every record fetched once, sorted and filtered in the page. With
 * the live event stream the records of each change are put in, and an upload fetches the list again.
 */
function AllDevicesList() {
  const client = useQueryClient();
  const { data, isPending: loading, error } = useQueryNow(statusQuery);
  const records = data ?? NO_RECORDS;
  // docs/errors.md#device-pick-list: a failed device fetch is only logged; the list stays empty,
  // without a count: a list never read is not known to hold 0 records.
  const counted = data !== undefined;
  useQueryError(error, (failure) => console.error('Failed to fetch device records', failure));
  useLiveRecords(client, statusQuery.queryKey, { applyEvery: APPLY_EVERY_MS });
  const [query, setQuery] = useState('');
  const [hub, setHub] = useState<string | null>(null);
  const [details, setDetails] = useState<DeviceRecord | null>(null);

  const rows = useMemo(() => toDeviceRows(records), [records]);
  const hubs = useMemo(() => hubOptions(records), [records]);
  // Typing stays responsive: the input updates at once, the filtered table follows when React has time.
  const deferredQuery = useDeferredValue(query);
  const deferredHub = useDeferredValue(hub);
  const visible = useMemo(() => filterRows(rows, deferredQuery, deferredHub), [rows, deferredQuery, deferredHub]);

  const count = `${visible.length} ${visible.length === 1 ? 'record' : 'records'}`;
  // The list the filters name: its count and its scroll position are its own.
  const listKey = `${deferredQuery}\n${deferredHub}`;

  return (
    <section className="vx-page">
      <h1 className="vx-page-title">Device Pick List</h1>
      <div className="dl-toolbar">
        <TrackingIdFilter value={query} onChange={setQuery} />
        <SearchSelect
          className="dl-hub-filter"
          options={hubs}
          value={hub}
          onChange={setHub}
          placeholder="Filter by hub..."
          ariaLabel="Filter by hub"
          clearable
        />
        <ListCount className="dl-count vx-muted" countOf={counted ? listKey : null} text={counted ? count : ''}>
          {counted && (
            <span data-testid="record-count" data-count={visible.length}>
              {count}
            </span>
          )}
        </ListCount>
      </div>
      {loading ? (
        <p className="vx-loading vx-muted" role="status">
          Loading devices…
        </p>
      ) : (
        // Other filters start at the top; records changed live keep the row in view where it is.
        <DeviceTable rows={visible} scrollKey={listKey} onShowDetails={setDetails} />
      )}
      <Modal open={details !== null} title="Device Details" onClose={() => setDetails(null)}>
        {details && <DeviceDetails record={details} />}
      </Modal>
    </section>
  );
}
