// The Device Pick List served a page at a time (server feature 'device-pages',
// docs/screens.md#device-pick-list): filtered by the server, the filters in the URL query, rows
// loaded as the user scrolls.
import { ListCount, Modal, SearchSelect, type DeviceRecord } from '@veritas/shared';
import { useState } from 'react';
import { DeviceDetails } from './device-details';
import { chosenValue, hubChoices, RESULT_CHOICES, STATUS_CHOICES } from './device-pages';
import { DeviceTable } from './device-table';
import { TrackingIdFilter } from './tracking-id-filter';
import { useDeviceFilters } from './use-device-filters';
import { useDeviceHubs } from './use-device-hubs';
import { useDevicePages } from './use-device-pages';

export function PagedDeviceList() {
  const [filters, setFilters] = useDeviceFilters();
  const pages = useDevicePages(filters);
  const hubOptions = hubChoices(useDeviceHubs(), filters.hub);
  const [details, setDetails] = useState<DeviceRecord | null>(null);

  // The count is the server's total. While the next one is on its way the previous stays, so
  // typing does not blink it. A list whose first page failed shows no count: empty on screen, its
  // rows are not known to be none, so never '0 records' (docs/errors.md#device-pick-list). A search
  // the server counted only up to its cap shows "10000+ records".
  const current = pages.total === undefined ? undefined : { total: pages.total, more: pages.moreThanTotal };
  const [kept, setKept] = useState(current);
  if (current !== undefined && (current.total !== kept?.total || current.more !== kept.more)) setKept(current);
  const firstPageFailed = pages.error !== undefined && pages.items.length === 0;
  const shown = firstPageFailed ? undefined : (current ?? (pages.counting ? kept : undefined));
  const countText =
    pages.loading || shown === undefined
      ? ''
      : `${shown.total}${shown.more ? '+' : ''} ${shown.total === 1 && !shown.more ? 'record' : 'records'}`;
  // The count announced is the list's own, not the previous one kept while it is counted.
  const countOf = current !== undefined && !firstPageFailed ? pages.shownKey : null;
  const placeholder = pages.error !== undefined && !pages.loadingMore ? 'Not loaded. Scroll to try again.' : 'Loading…';

  return (
    <section className="vx-page">
      <h1 className="vx-page-title">Device Pick List</h1>
      <div className="dl-toolbar">
        <TrackingIdFilter value={filters.q} onChange={(q) => setFilters({ q })} />
        <SearchSelect
          className="dl-hub-filter"
          options={hubOptions}
          value={chosenValue(hubOptions, filters.hub)}
          onChange={(hub) => setFilters({ hub })}
          placeholder="Filter by hub..."
          ariaLabel="Filter by hub"
          clearable
        />
        <SearchSelect
          className="dl-status-filter"
          options={STATUS_CHOICES}
          value={filters.status}
          onChange={(status) => setFilters({ status })}
          placeholder="Filter by status..."
          ariaLabel="Filter by status"
          clearable
        />
        <SearchSelect
          className="dl-result-filter"
          options={RESULT_CHOICES}
          value={filters.result}
          onChange={(result) => setFilters({ result })}
          placeholder="Filter by result..."
          ariaLabel="Filter by result"
          clearable
        />
        <ListCount className="dl-count vx-muted" countOf={countOf} text={countText}>
          {countText && (
            <span data-testid="record-count" data-count={shown?.total}>
              {countText}
            </span>
          )}
        </ListCount>
      </div>
      {pages.loading ? (
        <p className="vx-loading vx-muted" role="status">
          Loading devices…
        </p>
      ) : (
        // A new list (other filters) gets a table of its own, scrolled to its top; pages appended keep the scroll.
        <DeviceTable
          key={pages.shownKey}
          scrollKey={pages.shownKey}
          rows={pages.items}
          rowCount={pages.rowCount}
          placeholder={placeholder}
          onRangeEnd={pages.showUpTo}
          onRangeStart={pages.showFrom}
          busy={pages.refreshing}
          onShowDetails={setDetails}
        />
      )}
      <Modal open={details !== null} title="Device Details" onClose={() => setDetails(null)}>
        {details && <DeviceDetails record={details} />}
      </Modal>
    </section>
  );
}
