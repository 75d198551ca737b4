import { makeRecord, mockApi, type MockApi, withQueryClient } from '@veritas/shared/testing';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { DeviceFilters } from './device-pages';
import { useDevicePages } from './use-device-pages';

const NO_FILTERS: DeviceFilters = { q: '', hub: null, status: null, result: null };

const record = (i: number) => makeRecord({ id: i + 1, tracking_id: { tracking_id: `TRK-${i}` } });

let api: MockApi;
afterEach(() => api.restore());

/** api/devices/ over n records, 100 a page, the index as cursor; the count says n. */
function serve(n: number) {
  api = mockApi()
    .on('GET api/devices/', ({ config }) => {
      const from = Number(config.params.after ?? 0);
      const to = from + Number(config.params.limit);
      return [
        200,
        {
          records: Array.from({ length: Math.max(0, Math.min(to, n) - from) }, (_, i) => record(from + i)),
          next: to < n ? String(to) : null,
        },
      ];
    })
    .on('GET api/devices/count/', [200, { total: n }]);
}

const pageParams = () => api.requestsTo('GET api/devices/').map((r) => r.config.params);

describe('useDevicePages', () => {
  test('asks for the first page of the filters and their total, then holds the total in its scroll rows', async () => {
    serve(250);
    const filters: DeviceFilters = { q: ' TRK ', hub: 'DEL01', status: 'pending', result: 'all' };
    const { result } = renderHook(() => useDevicePages(filters), { wrapper: withQueryClient() });
    expect(result.current.loading).toBe(true);
    await waitFor(() => expect(result.current.total).toBe(250));
    expect(pageParams()).toEqual([{ q: 'TRK', hub: 'DEL01', status: 'pending', limit: '100' }]);
    expect(api.requestsTo('GET api/devices/count/')[0]!.config.params).toEqual({
      q: 'TRK',
      hub: 'DEL01',
      status: 'pending',
    });
    expect(result.current.items).toHaveLength(100);
    expect(result.current.rowCount).toBe(250);
  });

  test('the next pages follow the cursor as the rows in view near the end; the last one ends the scroll rows at the rows loaded', async () => {
    serve(150);
    const { result } = renderHook(() => useDevicePages(NO_FILTERS), { wrapper: withQueryClient() });
    await waitFor(() => expect(result.current.total).toBe(150));
    act(() => result.current.showUpTo(60));
    await waitFor(() => expect(result.current.items).toHaveLength(150));
    expect(pageParams()).toEqual([{ limit: '100' }, { after: '100', limit: '100' }]);
    expect(result.current).toMatchObject({ hasMore: false, rowCount: 150 });
  });

  test('other filters abort the calls of the previous ones and ask for their own first page', async () => {
    serve(10);
    const { result, rerender } = renderHook(({ filters }) => useDevicePages(filters), {
      initialProps: { filters: NO_FILTERS },
      wrapper: withQueryClient(),
    });
    rerender({ filters: { ...NO_FILTERS, q: 'x' } });
    const [first, second] = api.requestsTo('GET api/devices/');
    expect(first!.config.signal?.aborted).toBe(true);
    expect(second!.config.params).toEqual({ q: 'x', limit: '100' });
    await waitFor(() => expect(result.current.shownKey).toBe('api/devices/?q=x'));
  });
});
