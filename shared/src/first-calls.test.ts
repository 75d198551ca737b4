import type { FirstCall } from './api/composition';
import { FIRST_CALL_KEPT_MS, startFirstCalls, takeFirstCall } from './first-calls';
import { mockApi, type MockApi } from './testing/mock-api';

const LIST: FirstCall = {
  path: 'api/things/',
  forward: ['q', 'kind'],
  params: { limit: '10' },
  feature: 'device-pages',
};
const COUNT: FirstCall = { path: 'api/things/count/', forward: ['q', 'kind'] };

let api: MockApi;
beforeEach(() => {
  api = mockApi()
    .on('GET api/things/', [200, { things: [1] }])
    .on('GET api/things/count/', [200, { total: 1 }]);
});
afterEach(() => {
  startFirstCalls([], '', []);
  api.restore();
  jest.restoreAllMocks();
});

describe('first calls a page declares (docs/architecture.md#first-rows)', () => {
  test("each starts with the page URL's parameters it forwards, those present and not empty, and its own", () => {
    startFirstCalls([LIST, COUNT], '?kind=big&q=&other=1', ['device-pages']);
    expect(api.requests.map((r) => [r.url, r.config.params])).toEqual([
      ['api/things/', { kind: 'big', limit: '10' }],
      ['api/things/count/', { kind: 'big' }],
    ]);
  });

  test('a forwarded value its `accept` pattern does not match as a whole is left out; one without a pattern is sent as written', () => {
    const call: FirstCall = { path: 'api/things/', forward: ['q', 'kind'], accept: { kind: 'big|small' } };
    startFirstCalls([call], '?kind=big&q=Any%20text', []);
    startFirstCalls([call], '?kind=bigger&q=x', []);
    startFirstCalls([call], '?kind=BIG', []);
    expect(api.requests.map((r) => r.config.params)).toEqual([{ kind: 'big', q: 'Any text' }, { q: 'x' }, {}]);
  });

  test('a pattern that is no regular expression accepts no value', () => {
    startFirstCalls([{ path: 'api/things/', forward: ['kind'], accept: { kind: '(' } }], '?kind=(', []);
    expect(api.requests.map((r) => r.config.params)).toEqual([{}]);
  });

  test('a call needing a feature the server does not offer is not started', () => {
    startFirstCalls([LIST, COUNT], '?kind=big', []);
    expect(api.requests.map((r) => r.url)).toEqual(['api/things/count/']);
  });

  test('a first call is used only for the identical request, its parameters in any order', async () => {
    startFirstCalls([LIST], '?q=a&kind=big', ['device-pages']);
    expect(takeFirstCall('api/things/', { q: 'a', kind: 'big' })).toBeUndefined();
    expect(takeFirstCall('api/things/', { q: 'A', kind: 'big', limit: '10' })).toBeUndefined();
    expect(takeFirstCall('api/things/count/', { q: 'a', kind: 'big', limit: '10' })).toBeUndefined();
    const taken = takeFirstCall<{ things: number[] }>('api/things/', { limit: '10', kind: 'big', q: 'a' });
    expect((await taken)?.data).toEqual({ things: [1] });
    expect(api.requests).toHaveLength(1);
  });

  test('a first call is taken once: a later identical request asks the server', () => {
    startFirstCalls([COUNT], '?q=a', []);
    expect(takeFirstCall('api/things/count/', { q: 'a' })).toBeDefined();
    expect(takeFirstCall('api/things/count/', { q: 'a' })).toBeUndefined();
  });

  test('a failed first call is the failure of the request that takes it', async () => {
    api.on('GET api/things/count/', [503, { detail: 'busy' }]);
    startFirstCalls([COUNT], '', []);
    await expect(takeFirstCall('api/things/count/', {})).rejects.toMatchObject({ response: { status: 503 } });
  });

  test('entering another page drops the first calls not taken', () => {
    startFirstCalls([COUNT], '?q=a', []);
    startFirstCalls([], '', []);
    expect(takeFirstCall('api/things/count/', { q: 'a' })).toBeUndefined();
  });

  test('a first call not taken in time is not used', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000);
    startFirstCalls([COUNT], '?q=a', []);
    now.mockReturnValue(1_000 + FIRST_CALL_KEPT_MS + 1);
    expect(takeFirstCall('api/things/count/', { q: 'a' })).toBeUndefined();
  });
});
