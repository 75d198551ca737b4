import { act, render } from '@testing-library/react';
import { StrictMode, useEffect } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { usePagedResource, type Page, type PagedLoad, type PagedResource } from './use-paged-resource';

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

interface PageCall {
  key: string;
  after: string | null;
  limit: number;
  signal: AbortSignal;
  answer: ReturnType<typeof deferred<Page<number>>>;
}
interface TotalCall {
  key: string;
  signal: AbortSignal;
  answer: ReturnType<typeof deferred<number>>;
}

/** A server whose pages and totals the test answers one by one, in any order. */
function server({ withTotal = true } = {}) {
  const pages: PageCall[] = [];
  const totals: TotalCall[] = [];
  const load: PagedLoad<number> = {
    page: jest.fn((key: string, after: string | null, limit: number, signal: AbortSignal) => {
      const answer = deferred<Page<number>>();
      pages.push({ key, after, limit, signal, answer });
      return answer.promise;
    }),
  };
  if (withTotal) {
    load.total = jest.fn((key: string, signal: AbortSignal) => {
      const answer = deferred<number>();
      totals.push({ key, signal, answer });
      return answer.promise;
    });
  }
  return { load, pages, totals };
}

/** Items from..to-1 and the cursor after them. */
const page = (from: number, to: number, next: string | null = `c${to}`): Page<number> => ({
  items: Array.from({ length: to - from }, (_, i) => from + i),
  next,
});

let seen: PagedResource<number>;
const onError = jest.fn();

function List({
  name,
  load,
  pageSize = 10,
  ahead = 5,
}: {
  name: string;
  load: PagedLoad<number>;
  pageSize?: number;
  ahead?: number;
}) {
  // The tests read the hook's latest answer.
  // eslint-disable-next-line react-hooks/globals
  seen = usePagedResource(name, load, { pageSize, maxPageSize: 50, ahead, onError });
  return <p>{seen.loading ? 'loading' : `${seen.items.length} of ${seen.total ?? '?'}`}</p>;
}

let keys = 0;
/** A key of its own per test: first calls are shared by key until answered. */
const freshKey = () => `paged-${++keys}`;

beforeEach(() => onError.mockReset());

test('the first page and the total are asked for with the first render, before any effect runs', () => {
  const { load, pages, totals } = server();
  const name = freshKey();
  const html = renderToStaticMarkup(<List name={name} load={load} />);
  expect(html).toBe('<p>loading</p>');
  expect(pages.map(({ key, after, limit }) => [key, after, limit])).toEqual([[name, null, 10]]);
  expect(totals.map(({ key }) => key)).toEqual([name]);
});

test('renders before a commit share one first call (StrictMode renders twice)', async () => {
  const { load, pages } = server();
  render(
    <StrictMode>
      <List name={freshKey()} load={load} />
    </StrictMode>,
  );
  expect(pages).toHaveLength(1);
  await act(async () => pages[0]!.answer.resolve(page(0, 10)));
  expect(seen).toMatchObject({ loading: false, items: page(0, 10).items, hasMore: true });
});

test('loading until the first page; then its items, the total when it comes, and whether more follow', async () => {
  const { load, pages, totals } = server();
  const name = freshKey();
  render(<List name={name} load={load} />);
  expect(seen).toMatchObject({ loading: true, items: [], shownKey: null, total: undefined });
  await act(async () => pages[0]!.answer.resolve(page(0, 10)));
  expect(seen).toMatchObject({
    loading: false,
    refreshing: false,
    shownKey: name,
    items: page(0, 10).items,
    total: undefined,
    hasMore: true,
  });
  await act(async () => totals[0]!.answer.resolve(42));
  expect(seen.total).toBe(42);
});

test('a total answered before the first page is shown with it', async () => {
  const { load, pages, totals } = server();
  render(<List name={freshKey()} load={load} />);
  await act(async () => totals[0]!.answer.resolve(7));
  expect(seen).toMatchObject({ loading: true, total: undefined });
  await act(async () => pages[0]!.answer.resolve(page(0, 7, null)));
  expect(seen).toMatchObject({ loading: false, total: 7, hasMore: false });
});

test('counting while the total is on its way; a failed total is reported and leaves the total unknown', async () => {
  const { load, pages, totals } = server();
  const [first, second] = [freshKey(), freshKey()];
  const { rerender } = render(<List name={first} load={load} />);
  expect(seen.counting).toBe(true);
  await act(async () => pages[0]!.answer.resolve(page(0, 10)));
  await act(async () => totals[0]!.answer.resolve(12));
  expect(seen).toMatchObject({ total: 12, counting: false });

  rerender(<List name={second} load={load} />);
  expect(seen).toMatchObject({ refreshing: true, total: 12, counting: true });
  await act(async () => pages[1]!.answer.resolve(page(0, 10)));
  expect(seen).toMatchObject({ refreshing: false, total: undefined, counting: true });
  const failure = new Error('count down');
  await act(async () => totals[1]!.answer.reject(failure));
  expect(seen).toMatchObject({ total: undefined, counting: false, error: undefined, items: page(0, 10).items });
  expect(onError).toHaveBeenCalledWith(failure);
});

test('the next page is fetched with the cursor once the index in view comes within `ahead` of the end', async () => {
  const { load, pages } = server();
  const name = freshKey();
  render(<List name={name} load={load} />);
  await act(async () => pages[0]!.answer.resolve(page(0, 10, 'after-9')));
  act(() => seen.showUpTo(3));
  expect(pages).toHaveLength(1);
  act(() => seen.showUpTo(5));
  expect(pages.map(({ key, after, limit }) => [key, after, limit])).toEqual([
    [name, null, 10],
    [name, 'after-9', 10],
  ]);
  expect(seen.loadingMore).toBe(true);
  act(() => seen.showUpTo(6));
  expect(pages).toHaveLength(2);
  await act(async () => pages[1]!.answer.resolve(page(10, 20, null)));
  expect(seen).toMatchObject({ items: page(0, 20).items, hasMore: false, loadingMore: false });
  act(() => seen.showUpTo(19));
  expect(pages).toHaveLength(2);
});

/** Rows that report the index in view from their own effect, as a virtualized table does. */
function Rows({ index, showUpTo }: { index: number; showUpTo: (index: number) => void }) {
  useEffect(() => showUpTo(index), [index, showUpTo]);
  return null;
}

function ListWithRows({ name, load, index }: { name: string; load: PagedLoad<number>; index: number }) {
  // eslint-disable-next-line react-hooks/globals
  seen = usePagedResource(name, load, { pageSize: 10, ahead: 5, onError });
  return <Rows index={index} showUpTo={seen.showUpTo} />;
}

test('rows reporting in the same commit as an appended page see that page: the cursor is not asked for twice', async () => {
  const { load, pages } = server();
  const name = freshKey();
  const { rerender } = render(<ListWithRows name={name} load={load} index={0} />);
  await act(async () => pages[0]!.answer.resolve(page(0, 10)));
  rerender(<ListWithRows name={name} load={load} index={9} />);
  expect(pages[1]).toMatchObject({ after: 'c10' });
  await act(async () => {
    pages[1]!.answer.resolve(page(10, 20));
    await Promise.resolve();
    rerender(<ListWithRows name={name} load={load} index={12} />);
  });
  expect(seen.items).toHaveLength(20);
  expect(pages.map((p) => p.after)).toEqual([null, 'c10']);
});

test('an index far past the end is covered page after page, with bigger pages (up to maxPageSize)', async () => {
  const { load, pages } = server();
  render(<List name={freshKey()} load={load} />);
  await act(async () => pages[0]!.answer.resolve(page(0, 10)));
  act(() => seen.showUpTo(80));
  expect(pages[1]).toMatchObject({ after: 'c10', limit: 50 });
  await act(async () => pages[1]!.answer.resolve(page(10, 60)));
  expect(pages[2]).toMatchObject({ after: 'c60', limit: 26 });
  await act(async () => pages[2]!.answer.resolve(page(60, 86)));
  expect(pages).toHaveLength(3);
  expect(seen.items).toHaveLength(86);
});

test('a failed further page keeps the items and is tried again on the next scroll, not before', async () => {
  const { load, pages } = server();
  render(<List name={freshKey()} load={load} />);
  await act(async () => pages[0]!.answer.resolve(page(0, 10)));
  act(() => seen.showUpTo(9));
  const failure = new Error('down');
  await act(async () => pages[1]!.answer.reject(failure));
  expect(seen).toMatchObject({ items: page(0, 10).items, error: failure, loadingMore: false, hasMore: true });
  expect(onError).toHaveBeenCalledWith(failure);
  await act(async () => {});
  expect(pages).toHaveLength(2);
  act(() => seen.showUpTo(9));
  expect(pages[2]).toMatchObject({ after: 'c10' });
  await act(async () => pages[2]!.answer.resolve(page(10, 20)));
  expect(seen).toMatchObject({ items: page(0, 20).items, error: undefined });
});

test('a failed first page shows no items and is not loading any more (no stuck spinner)', async () => {
  const { load, pages } = server();
  render(<List name={freshKey()} load={load} />);
  const failure = new Error('down');
  await act(async () => pages[0]!.answer.reject(failure));
  expect(seen).toMatchObject({ loading: false, items: [], error: failure, hasMore: false });
  expect(onError).toHaveBeenCalledTimes(1);
});

test('another key aborts the calls of the previous one; its items stay shown until the new first page replaces them', async () => {
  const { load, pages, totals } = server();
  const [first, second] = [freshKey(), freshKey()];
  const { rerender } = render(<List name={first} load={load} />);
  await act(async () => pages[0]!.answer.resolve(page(0, 10)));
  await act(async () => totals[0]!.answer.resolve(100));
  act(() => seen.showUpTo(9));
  expect(pages).toHaveLength(2);

  rerender(<List name={second} load={load} />);
  expect(pages[1]!.signal.aborted).toBe(true);
  expect(pages[2]).toMatchObject({ key: second, after: null });
  expect(seen).toMatchObject({
    refreshing: true,
    shownKey: first,
    items: page(0, 10).items,
    total: 100,
    loadingMore: false,
  });
  // No further page of a list being replaced.
  act(() => seen.showUpTo(9));
  expect(pages).toHaveLength(3);

  await act(async () => pages[1]!.answer.resolve(page(10, 20)));
  await act(async () => pages[2]!.answer.resolve(page(500, 503, null)));
  expect(seen).toMatchObject({
    refreshing: false,
    shownKey: second,
    items: [500, 501, 502],
    total: undefined,
    hasMore: false,
  });
});

test('a stale first page answering after a newer key is dropped, and its failure is not reported', async () => {
  const { load, pages, totals } = server();
  const [a, b, c] = [freshKey(), freshKey(), freshKey()];
  const { rerender } = render(<List name={a} load={load} />);
  rerender(<List name={b} load={load} />);
  rerender(<List name={c} load={load} />);
  expect(pages.map((p) => [p.key, p.signal.aborted])).toEqual([
    [a, true],
    [b, true],
    [c, false],
  ]);
  await act(async () => pages[2]!.answer.resolve(page(0, 3, null)));
  await act(async () => totals[2]!.answer.resolve(3));
  await act(async () => pages[0]!.answer.resolve(page(100, 110)));
  await act(async () => totals[1]!.answer.resolve(999));
  await act(async () => pages[1]!.answer.reject(new Error('aborted')));
  expect(seen).toMatchObject({ shownKey: c, items: [0, 1, 2], total: 3 });
  expect(onError).not.toHaveBeenCalled();
});

test('going back to a key whose call was aborted asks again', async () => {
  const { load, pages } = server();
  const [a, b] = [freshKey(), freshKey()];
  const { rerender } = render(<List name={a} load={load} />);
  rerender(<List name={b} load={load} />);
  rerender(<List name={a} load={load} />);
  expect(pages.map((p) => p.key)).toEqual([a, b, a]);
  await act(async () => pages[2]!.answer.resolve(page(0, 2, null)));
  expect(seen).toMatchObject({ shownKey: a, items: [0, 1] });
});

test('without a total loader the total stays unknown', async () => {
  const { load, pages } = server({ withTotal: false });
  render(<List name={freshKey()} load={load} />);
  await act(async () => pages[0]!.answer.resolve(page(0, 4, null)));
  expect(seen).toMatchObject({ items: [0, 1, 2, 3], total: undefined, counting: false, hasMore: false });
});

test('nothing happens after the page is left: no state, no onError, no further page', async () => {
  const errors = jest.spyOn(console, 'error').mockImplementation(() => {});
  const { load, pages } = server();
  const { unmount } = render(<List name={freshKey()} load={load} />);
  await act(async () => pages[0]!.answer.resolve(page(0, 10)));
  act(() => seen.showUpTo(9));
  const { showUpTo } = seen;
  unmount();
  await act(async () => pages[1]!.answer.reject(new Error('late')));
  showUpTo(9);
  expect(pages).toHaveLength(2);
  expect(onError).not.toHaveBeenCalled();
  expect(errors).not.toHaveBeenCalled();
  errors.mockRestore();
});

describe('changes of the items loaded (docs/architecture.md#loading-data)', () => {
  test('update changes the items of the list shown, given the item the next cursor names; another key is left alone', async () => {
    const { load, pages } = server();
    const [name, other] = [freshKey(), freshKey()];
    render(<List name={name} load={load} />);
    await act(async () => pages[0]!.answer.resolve(page(0, 10)));
    const boundaries: (number | null)[] = [];
    act(() =>
      seen.update(name, (items, boundary) => {
        boundaries.push(boundary);
        return [-1, ...items.filter((n) => n !== 3)];
      }),
    );
    expect(seen.items).toEqual([-1, 0, 1, 2, 4, 5, 6, 7, 8, 9]);
    expect(boundaries).toContain(9);
    act(() => seen.update(other, () => []));
    expect(seen.items).toHaveLength(10);
    // The cursor is unchanged: the next page follows the last item the server sent.
    act(() => seen.showUpTo(9));
    expect(pages[1]).toMatchObject({ after: 'c10' });
    await act(async () => pages[1]!.answer.resolve(page(10, 12, null)));
    act(() => seen.update(name, (items, boundary) => (boundaries.push(boundary), items)));
    expect(boundaries.at(-1)).toBeNull();
  });

  test('recount asks the total again; the total shown stays until it answers, and after a failure', async () => {
    const { load, pages, totals } = server();
    const name = freshKey();
    render(<List name={name} load={load} />);
    await act(async () => pages[0]!.answer.resolve(page(0, 10)));
    await act(async () => totals[0]!.answer.resolve(12));
    act(() => seen.recount());
    expect(totals.map((t) => t.key)).toEqual([name, name]);
    expect(seen).toMatchObject({ total: 12, counting: false });
    await act(async () => totals[1]!.answer.resolve(13));
    expect(seen.total).toBe(13);
    act(() => seen.recount());
    const failure = new Error('busy');
    await act(async () => totals[2]!.answer.reject(failure));
    expect(seen.total).toBe(13);
    expect(onError).toHaveBeenCalledWith(failure);
  });

  test('a recount under way for a list left is aborted and its answer dropped', async () => {
    const { load, pages, totals } = server();
    const [first, second] = [freshKey(), freshKey()];
    const { rerender } = render(<List name={first} load={load} />);
    await act(async () => pages[0]!.answer.resolve(page(0, 10)));
    act(() => seen.recount());
    rerender(<List name={second} load={load} />);
    expect(totals[1]!.signal.aborted).toBe(true);
    await act(async () => totals[2]!.answer.resolve(3));
    await act(async () => totals[1]!.answer.resolve(999));
    await act(async () => pages[1]!.answer.resolve(page(0, 3, null)));
    expect(seen).toMatchObject({ shownKey: second, total: 3, counting: false });
  });

  test('reload asks the first page and the total again; the items stay, not refreshing, until the new page replaces them', async () => {
    const { load, pages, totals } = server();
    const name = freshKey();
    render(<List name={name} load={load} />);
    await act(async () => pages[0]!.answer.resolve(page(0, 10)));
    await act(async () => totals[0]!.answer.resolve(30));
    act(() => seen.showUpTo(9));
    await act(async () => pages[1]!.answer.resolve(page(10, 20)));
    act(() => seen.reload());
    expect(pages[2]).toMatchObject({ key: name, after: null, limit: 10 });
    expect(seen).toMatchObject({
      items: page(0, 20).items,
      refreshing: false,
      loading: false,
      total: 30,
      counting: false,
    });
    await act(async () => pages[2]!.answer.resolve(page(100, 110)));
    expect(seen).toMatchObject({ items: page(100, 110).items, total: 30, hasMore: true });
    await act(async () => totals[1]!.answer.resolve(31));
    expect(seen.total).toBe(31);
  });

  test('with idOf, a page appended leaves out the items already loaded', async () => {
    const { load, pages } = server();
    function Identified({ name }: { name: string }) {
      // eslint-disable-next-line react-hooks/globals
      seen = usePagedResource(name, load, { pageSize: 10, ahead: 5, idOf: (n) => n });
      return null;
    }
    const name = freshKey();
    render(<Identified name={name} />);
    await act(async () => pages[0]!.answer.resolve(page(0, 10)));
    act(() => seen.update(name, (items) => [12, ...items]));
    act(() => seen.showUpTo(9));
    await act(async () => pages[1]!.answer.resolve(page(10, 14, null)));
    expect(seen.items).toEqual([12, ...page(0, 10).items, 10, 11, 13]);
  });
});
