// The pick list's first page and total, started by the shell with this remote's code from the
// `firstCalls` of remote.json (docs/architecture.md#first-rows).
import type { FirstCall } from '@veritas/shared';
import { startFirstCalls } from '@veritas/shared/first-calls';
import { makeRecord, mockApi, withQueryClient, type MockApi } from '@veritas/shared/testing';
import { renderHook, waitFor } from '@testing-library/react';
import declaration from '../remote.json';
import { filtersFromQuery } from './device-pages';
import { useDevicePages } from './use-device-pages';

const FIRST_CALLS = declaration.pages.find((page) => page.path === 'ListDevices')!.firstCalls as FirstCall[];

let api: MockApi;
beforeEach(() => {
  api = mockApi()
    .on('GET api/devices/', (request) => [
      200,
      { records: [makeRecord({ id: request.config.params.status === 'verified' ? 2 : 1 })], next: null },
    ])
    .on('GET api/devices/count/', [200, { total: 1 }]);
});
afterEach(() => {
  startFirstCalls([], '', []);
  api.restore();
});

/** The pick list opened at `search`, the shell having started its first calls with its code. */
function openAt(search: string) {
  startFirstCalls(FIRST_CALLS, search, ['device-pages']);
  return renderHook(() => useDevicePages(filtersFromQuery(new URLSearchParams(search))), {
    wrapper: withQueryClient(),
  });
}

test.each([
  '',
  '?q=TRK-1&hub=BLR01&status=verified&result=E004',
  '?hub=DEL01&tab=2',
  // The 'All …' choices as the page writes them, and values it ignores: left out by `accept` too.
  '?hub=all&status=all&result=all',
  '?status=lost&result=E999',
])(
  'the first calls remote.json declares are the pick list\'s own first requests, so it asks nothing more (URL "%s")',
  async (search) => {
    const { result } = openAt(search);
    await waitFor(() => expect(result.current.total).toBe(1));
    expect(result.current.items).toHaveLength(1);
    expect(api.requestsTo('GET api/devices/')).toHaveLength(1);
    expect(api.requestsTo('GET api/devices/count/')).toHaveLength(1);
  },
);

test('a first call the pick list would not make is not used: it asks for its own', async () => {
  // The page reads the status ignoring case and sends the server's value; the shell leaves out a
  // value its `accept` does not name.
  const { result } = openAt('?status=Verified');
  await waitFor(() => expect(result.current.total).toBe(1));
  expect(api.requestsTo('GET api/devices/').map((r) => r.config.params)).toEqual([
    { limit: '100' },
    { status: 'verified', limit: '100' },
  ]);
  expect(result.current.items.map((row) => row.record.id)).toEqual([2]);
});

test('the first calls send no value of the URL that the server would refuse (400): they leave it out', () => {
  const tooLong = 'T'.repeat(257);
  startFirstCalls(FIRST_CALLS, `?q=${tooLong}&hub=${'H'.repeat(129)}&status=DETACHED&result=e007`, ['device-pages']);
  expect(api.requests.map((r) => [r.url, r.config.params])).toEqual([
    ['api/devices/', { limit: '100' }],
    ['api/devices/count/', {}],
  ]);
});
