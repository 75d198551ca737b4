import { act, render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { getList } from './http';
import {
  createQueryClient,
  QueryProvider,
  refreshQueries,
  useInfiniteQueryNow,
  useQueryError,
  useMutation,
  useQueryNow,
  type QueryClient,
} from './query';
import { mockApi, type MockApi } from './testing/mock-api';
import { deferred } from './testing/deferred';
import { mutationsKeep } from './testing/query';

/** Loads that the test answers one by one, in any order. */
function calls<T>() {
  const made: ReturnType<typeof deferred<T>>[] = [];
  const load = jest.fn((_key: string) => {
    const call = deferred<T>();
    made.push(call);
    return call.promise;
  });
  return { load, made };
}

let client: QueryClient;
beforeEach(() => (client = createQueryClient()));
afterEach(() => client.clear());

const onError = jest.fn();
beforeEach(() => onError.mockReset());

function Page({ name = 'a', load }: { name?: string; load: (key: string) => Promise<string> }) {
  const { data, error, isPending } = useQueryNow({ queryKey: [name], queryFn: () => load(name) });
  useQueryError(error, onError);
  return <p>{isPending ? 'loading' : error ? 'failed' : `data: ${data}`}</p>;
}

const withClient = (ui: React.ReactNode) => <QueryProvider client={client}>{ui}</QueryProvider>;

test('the call starts with the first render, before any effect runs', () => {
  const { load } = calls<string>();
  const html = renderToStaticMarkup(withClient(<Page load={load} />));
  expect(load).toHaveBeenCalledTimes(1);
  expect(html).toBe('<p>loading</p>');
});

test('renders before a commit share one call (StrictMode renders twice)', async () => {
  const { load, made } = calls<string>();
  render(
    withClient(
      <StrictMode>
        <Page load={load} />
      </StrictMode>,
    ),
  );
  expect(load).toHaveBeenCalledTimes(1);
  await act(async () => made[0]!.resolve('one'));
  expect(await screen.findByText('data: one')).toBeInTheDocument();
});

describe.each([
  ['the clock running', false],
  ['the clock standing still (an answer and a render in the same millisecond)', true],
])('with %s', (_clock, standingStill) => {
  beforeEach(() => {
    if (standingStill) jest.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
  });
  afterEach(() => jest.restoreAllMocks());

  test('a page visited again shows what it had and fetches it again', async () => {
    const { load, made } = calls<string>();
    const first = render(withClient(<Page load={load} />));
    await act(async () => made[0]!.resolve('one'));
    first.unmount();
    render(withClient(<Page load={load} />));
    expect(await screen.findByText('data: one')).toBeInTheDocument();
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    await act(async () => made[1]!.resolve('two'));
    expect(await screen.findByText('data: two')).toBeInTheDocument();
  });
});

test('a failure is the error, reported once to useQueryError, also under StrictMode', async () => {
  const { load, made } = calls<string>();
  render(
    withClient(
      <StrictMode>
        <Page load={load} />
      </StrictMode>,
    ),
  );
  const failure = new Error('down');
  await act(async () => made[0]!.reject(failure));
  expect(await screen.findByText('failed')).toBeInTheDocument();
  expect(onError).toHaveBeenCalledTimes(1);
  expect(onError).toHaveBeenCalledWith(failure);
});

test("an answer for a key no longer asked for is not shown over the latest key's", async () => {
  const { load, made } = calls<string>();
  const { rerender } = render(withClient(<Page name="a" load={load} />));
  rerender(withClient(<Page name="b" load={load} />));
  await act(async () => made[1]!.resolve('b'));
  await act(async () => made[0]!.resolve('a'));
  expect(await screen.findByText('data: b')).toBeInTheDocument();
  expect(screen.queryByText('data: a')).not.toBeInTheDocument();
});

test('the first page of a paged list starts with the first render', () => {
  const page = jest.fn(() => new Promise<string[]>(() => {}));
  function List() {
    const { isPending } = useInfiniteQueryNow({
      queryKey: ['list'],
      queryFn: page,
      initialPageParam: null,
      getNextPageParam: () => undefined,
    });
    return <p>{isPending ? 'loading' : 'list'}</p>;
  }
  expect(renderToStaticMarkup(withClient(<List />))).toBe('<p>loading</p>');
  expect(page).toHaveBeenCalledTimes(1);
});

describe('a change is kept in the cache only while a component holds it (gcTime 0)', () => {
  const SECRET = 'whsec_not-to-be-kept';
  function Form() {
    const create = useMutation({ mutationFn: async (label: string) => `${label}:${SECRET}` });
    return (
      <>
        <button onClick={() => void create.mutateAsync('key')}>Create</button>
        <button onClick={() => create.reset()}>Done</button>
        <p>{create.data ?? 'no answer'}</p>
      </>
    );
  }

  test('the page shows the answer; once it lets it go (reset), no copy stays', async () => {
    render(withClient(<Form />));
    act(() => screen.getByRole('button', { name: 'Create' }).click());
    expect(await screen.findByText(`key:${SECRET}`)).toBeTruthy();
    expect(mutationsKeep(client, SECRET)).toBe(true);
    act(() => screen.getByRole('button', { name: 'Done' }).click());
    await waitFor(() => expect(mutationsKeep(client, SECRET)).toBe(false));
  });

  test('a page left with an answer shown keeps no copy of it', async () => {
    const { unmount } = render(withClient(<Form />));
    act(() => screen.getByRole('button', { name: 'Create' }).click());
    await screen.findByText(`key:${SECRET}`);
    unmount();
    await waitFor(() => expect(mutationsKeep(client, SECRET)).toBe(false));
  });
});

describe('refreshQueries', () => {
  test('a first call on its way is made again, its answer (read before the change) never shown', async () => {
    const { load, made } = calls<string>();
    render(withClient(<Page load={load} />));
    act(() => void refreshQueries(client, { queryKey: ['a'] }));
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    await act(async () => made[0]!.resolve('before the change'));
    expect(screen.getByText('loading')).toBeInTheDocument();
    act(() => made[1]!.resolve('after the change'));
    expect(await screen.findByText('data: after the change')).toBeInTheDocument();
    expect(onError).not.toHaveBeenCalled();
  });

  test('a query with an answer is read again, the answer shown until the new one comes', async () => {
    const { load, made } = calls<string>();
    render(withClient(<Page load={load} />));
    act(() => made[0]!.resolve('first'));
    await screen.findByText('data: first');
    act(() => void refreshQueries(client, { queryKey: ['a'] }));
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    expect(screen.getByText('data: first')).toBeInTheDocument();
    act(() => made[1]!.resolve('second'));
    expect(await screen.findByText('data: second')).toBeInTheDocument();
  });
});

describe('getList', () => {
  let api: MockApi;
  beforeEach(() => (api = mockApi()));
  afterEach(() => api.restore());

  test('GETs the path and answers its list', async () => {
    api.on('GET api/get_status/', [200, [{ id: 1 }]]);
    await expect(getList('api/get_status/')).resolves.toEqual([{ id: 1 }]);
  });

  test('an answer that is not a list is an error', async () => {
    api.on('GET user/get_groups/', [200, { detail: 'oops' }]);
    await expect(getList('user/get_groups/')).rejects.toThrow('user/get_groups/ did not answer a list');
  });

  test('with useQueryNow: the page shows the list, fetched once', async () => {
    api.on('GET api/get_status/', [200, ['x']]);
    function List() {
      const { data } = useQueryNow({
        queryKey: ['api/get_status/'],
        queryFn: () => getList<string>('api/get_status/'),
      });
      return <p>{data?.join() ?? 'loading'}</p>;
    }
    render(withClient(<List />));
    await waitFor(() => expect(screen.getByText('x')).toBeInTheDocument());
    expect(api.requestsTo('GET api/get_status/')).toHaveLength(1);
  });
});
