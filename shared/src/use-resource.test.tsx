import { act, render, screen, waitFor } from '@testing-library/react';
import { Activity, StrictMode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { getList } from './http';
import { mockApi, type MockApi } from './testing/mock-api';
import { useResource, type Resource } from './use-resource';

/** A call answered when the test says so. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

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

let seen: Resource<string>;
const onError = jest.fn();

function Page({ name = 'a', load }: { name?: string; load: (key: string) => Promise<string> }) {
  // The tests read the hook's latest answer.
  // eslint-disable-next-line react-hooks/globals
  seen = useResource(name, load, { onError });
  return <p>{seen.loading ? 'loading' : `data: ${seen.data ?? '-'}`}</p>;
}

let keys = 0;
/** A key of its own per test: first calls are shared by key until answered. */
const freshKey = () => `resource-${++keys}`;

beforeEach(() => onError.mockReset());

test('the call starts with the first render, before any effect runs', () => {
  const { load } = calls<string>();
  const html = renderToStaticMarkup(<Page name={freshKey()} load={load} />);
  expect(load).toHaveBeenCalledTimes(1);
  expect(html).toBe('<p>loading</p>');
});

test('renders before a commit share one call (StrictMode renders twice); a later mount calls again', async () => {
  const name = freshKey();
  const { load, made } = calls<string>();
  const { unmount } = render(
    <StrictMode>
      <Page name={name} load={load} />
    </StrictMode>,
  );
  expect(load).toHaveBeenCalledTimes(1);
  await act(async () => made[0]!.resolve('one'));
  expect(screen.getByText('data: one')).toBeInTheDocument();
  unmount();

  render(<Page name={name} load={load} />);
  expect(load).toHaveBeenCalledTimes(2);
});

test('loading until the answer, then its data', async () => {
  const { load, made } = calls<string>();
  render(<Page name={freshKey()} load={load} />);
  expect(screen.getByText('loading')).toBeInTheDocument();
  expect(seen).toMatchObject({ data: undefined, error: undefined, loading: true });
  await act(async () => made[0]!.resolve('one'));
  expect(screen.getByText('data: one')).toBeInTheDocument();
  expect(seen).toMatchObject({ data: 'one', error: undefined, loading: false });
});

test('a failure is the error, reported once to onError, also under StrictMode', async () => {
  const { load, made } = calls<string>();
  render(
    <StrictMode>
      <Page name={freshKey()} load={load} />
    </StrictMode>,
  );
  const failure = new Error('down');
  await act(async () => made[0]!.reject(failure));
  expect(seen).toMatchObject({ data: undefined, error: failure, loading: false });
  expect(onError).toHaveBeenCalledTimes(1);
  expect(onError).toHaveBeenCalledWith(failure);
});

test('nothing happens after the page is left: no state, no onError; reload then calls nothing', async () => {
  const errors = jest.spyOn(console, 'error').mockImplementation(() => {});
  const { load, made } = calls<string>();
  const { unmount } = render(<Page name={freshKey()} load={load} />);
  const { reload } = seen;
  unmount();
  await act(async () => made[0]!.reject(new Error('late')));
  expect(onError).not.toHaveBeenCalled();
  await expect(reload()).resolves.toBeUndefined();
  expect(load).toHaveBeenCalledTimes(1);
  expect(errors).not.toHaveBeenCalled();
  errors.mockRestore();
});

test('reload keeps the data shown until its answer replaces it, and resolves with that answer', async () => {
  const { load, made } = calls<string>();
  render(<Page name={freshKey()} load={load} />);
  await act(async () => made[0]!.resolve('one'));

  let reloaded!: Promise<string | undefined>;
  act(() => {
    reloaded = seen.reload();
  });
  expect(seen).toMatchObject({ data: 'one', loading: false });
  await act(async () => made[1]!.resolve('two'));
  await expect(reloaded).resolves.toBe('two');
  expect(screen.getByText('data: two')).toBeInTheDocument();
});

test('a failed reload keeps the data, sets the error, reports it and resolves with undefined; a later success clears the error', async () => {
  const { load, made } = calls<string>();
  render(<Page name={freshKey()} load={load} />);
  await act(async () => made[0]!.resolve('one'));

  let reloaded!: Promise<string | undefined>;
  act(() => {
    reloaded = seen.reload();
  });
  const failure = new Error('down');
  await act(async () => made[1]!.reject(failure));
  await expect(reloaded).resolves.toBeUndefined();
  expect(seen).toMatchObject({ data: 'one', error: failure, loading: false });
  expect(onError).toHaveBeenCalledTimes(1);

  act(() => void seen.reload());
  await act(async () => made[2]!.resolve('three'));
  expect(seen).toMatchObject({ data: 'three', error: undefined });
  expect(onError).toHaveBeenCalledTimes(1);
});

test('an older answer arriving after a newer one is dropped; its reload resolves with undefined', async () => {
  const { load, made } = calls<string>();
  render(<Page name={freshKey()} load={load} />);
  let older!: Promise<string | undefined>;
  let newer!: Promise<string | undefined>;
  act(() => {
    older = seen.reload();
  });
  act(() => {
    newer = seen.reload();
  });
  await act(async () => made[2]!.resolve('newest'));
  await act(async () => made[1]!.resolve('older'));
  await act(async () => made[0]!.reject(new Error('first, failing last')));
  expect(seen).toMatchObject({ data: 'newest', error: undefined, loading: false });
  expect(onError).not.toHaveBeenCalled();
  await expect(newer).resolves.toBe('newest');
  await expect(older).resolves.toBeUndefined();
});

test('a page hidden and shown again keeps the newer answer (its effects run again)', async () => {
  const { load, made } = calls<string>();
  const name = freshKey();
  const page = (mode: 'visible' | 'hidden') => (
    <Activity mode={mode}>
      <Page name={name} load={load} />
    </Activity>
  );
  const { rerender } = render(page('visible'));
  await act(async () => made[0]!.resolve('one'));
  act(() => void seen.reload());
  await act(async () => made[1]!.resolve('two'));
  rerender(page('hidden'));
  rerender(page('visible'));
  await act(async () => {});
  expect(seen.data).toBe('two');
});

test('another key loads that key, loading again; the old answer is dropped', async () => {
  const { load, made } = calls<string>();
  const [first, second] = [freshKey(), freshKey()];
  const { rerender } = render(<Page name={first} load={load} />);
  rerender(<Page name={second} load={load} />);
  expect(load.mock.calls.map(([key]) => key)).toEqual([first, second]);
  expect(seen.loading).toBe(true);
  await act(async () => made[0]!.resolve('of the first key'));
  expect(seen).toMatchObject({ data: undefined, loading: true });
  await act(async () => made[1]!.resolve('of the second key'));
  expect(seen).toMatchObject({ data: 'of the second key', loading: false });
});

test('setData changes the data shown', async () => {
  const { load, made } = calls<string>();
  render(<Page name={freshKey()} load={load} />);
  await act(async () => made[0]!.resolve('one'));
  act(() => seen.setData((data) => `${data} and more`));
  expect(screen.getByText('data: one and more')).toBeInTheDocument();
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

  test('with useResource: the page shows the list', async () => {
    api.on('GET api/get_status/', [200, ['x']]);
    function List() {
      const { data } = useResource('api/get_status/', getList<string>);
      return <p>{data?.join() ?? 'loading'}</p>;
    }
    render(<List />);
    await waitFor(() => expect(screen.getByText('x')).toBeInTheDocument());
    expect(api.requestsTo('GET api/get_status/')).toHaveLength(1);
  });
});
