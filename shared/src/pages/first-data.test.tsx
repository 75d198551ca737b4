import { render, screen, waitFor } from '@testing-library/react';
import { QueryProvider, queryClient, useInfiniteQueryNow, useQueryNow } from '../query';
import { makeRecord } from '../testing';
import { mockApi, type MockApi } from '../testing/mock-api';
import { deviceCountQuery, devicePagesQuery, devicesKey, filtersFromQuery } from './device-list';
import { startFirstData } from './first-data';

let api: MockApi;
beforeEach(() => {
  api = mockApi()
    .on('GET api/devices/', [200, { records: [makeRecord({ id: 7 })], next: null }])
    .on('GET api/devices/count/', [200, { total: 1 }]);
});
afterEach(() => {
  api.restore();
  queryClient.clear();
});

const SEARCH = '?hub=BLR01&status=verified';

/** What the pick list reads first (useDevicePages), for the filters of SEARCH. */
function PickList() {
  const key = devicesKey(filtersFromQuery(new URLSearchParams(SEARCH)));
  const pages = useInfiniteQueryNow(devicePagesQuery(key, () => -1));
  const count = useQueryNow(deviceCountQuery(key));
  if (!pages.data || count.data === undefined) return <p>loading</p>;
  return <p>{`${pages.data.pages[0]!.items.length} of ${count.data.total}`}</p>;
}

describe('first data a page declares (docs/architecture.md#first-rows)', () => {
  test("the pick list's first page and total start for the URL's filters, before the page's code", () => {
    startFirstData('device-list', SEARCH, ['device-pages']);
    expect(api.requestsTo('GET api/devices/').map((r) => r.config.params)).toEqual([
      { hub: 'BLR01', status: 'verified', limit: '100' },
    ]);
    expect(api.requestsTo('GET api/devices/count/').map((r) => r.config.params)).toEqual([
      { hub: 'BLR01', status: 'verified' },
    ]);
  });

  test('the page reads the answers already there from the one cache, without asking again', async () => {
    startFirstData('device-list', SEARCH, ['device-pages']);
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    render(
      <QueryProvider>
        <PickList />
      </QueryProvider>,
    );
    expect(await screen.findByText('1 of 1')).toBeInTheDocument();
    expect(api.requestsTo('GET api/devices/')).toHaveLength(1);
    expect(api.requestsTo('GET api/devices/count/')).toHaveLength(1);
  });

  test('the page shares a call still under way', async () => {
    startFirstData('device-list', SEARCH, ['device-pages']);
    render(
      <QueryProvider>
        <PickList />
      </QueryProvider>,
    );
    expect(await screen.findByText('1 of 1')).toBeInTheDocument();
    expect(api.requestsTo('GET api/devices/')).toHaveLength(1);
    expect(api.requestsTo('GET api/devices/count/')).toHaveLength(1);
  });

  test('without the server feature, or for a name no first data has, nothing is started', () => {
    startFirstData('device-list', SEARCH, []);
    startFirstData('dashboard-figures', '', ['device-pages', 'dashboard-figures']);
    expect(api.requests).toEqual([]);
  });
});
