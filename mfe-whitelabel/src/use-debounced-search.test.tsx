import { withQueryClient } from '@veritas/shared/testing';
import { act, renderHook } from '@testing-library/react';
import { SEARCH_DEBOUNCE_MS, useDebouncedSearch } from './use-debounced-search';

/** A search whose answers the test gives, one pending promise per call. */
function controlledFind() {
  const calls: { text: string; answer: (found: string[]) => void; fail: (error: unknown) => void }[] = [];
  const find = jest.fn(
    (text: string) =>
      new Promise<string[]>((resolve, reject) => {
        calls.push({ text, answer: resolve, fail: reject });
      }),
  );
  return { find, calls };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

function setup() {
  const { find, calls } = controlledFind();
  const onError = jest.fn();
  const queryOf = (text: string) => ({ queryKey: ['search', text], queryFn: () => find(text) });
  const hook = renderHook(() => useDebouncedSearch(queryOf, onError), { wrapper: withQueryClient() });
  return { find, calls, onError, hook };
}

/** Gives a call its answer (or failure) and lets the query pass it on: it notifies after a timeout of 0. */
async function settle(give: () => void) {
  await act(async () => give());
  act(() => jest.advanceTimersByTime(0));
}

test('the search debounce is 300 ms (docs/screens.md#white-labeled-brands)', () => {
  expect(SEARCH_DEBOUNCE_MS).toBe(300);
});

test('debounced: typing "s", "sa", "sam" within 300 ms sends one request, for "sam", 300 ms after the last', () => {
  const { find, hook } = setup();
  act(() => hook.result.current.search('s'));
  act(() => jest.advanceTimersByTime(200));
  act(() => hook.result.current.search('sa'));
  act(() => jest.advanceTimersByTime(200));
  act(() => hook.result.current.search('sam'));
  act(() => jest.advanceTimersByTime(299));
  expect(find).not.toHaveBeenCalled();
  act(() => jest.advanceTimersByTime(1));
  expect(find.mock.calls).toEqual([['sam']]);
});

test('loading from the call until the answer, then the results', async () => {
  const { calls, hook } = setup();
  expect(hook.result.current.loading).toBe(false);
  act(() => hook.result.current.search('apple'));
  expect(hook.result.current.loading).toBe(true);
  act(() => jest.advanceTimersByTime(300));
  expect(hook.result.current.loading).toBe(true);
  await settle(() => calls[0]!.answer(['Apple, Inc.']));
  expect(hook.result.current).toEqual(expect.objectContaining({ loading: false, results: ['Apple, Inc.'] }));
});

test('a late answer to an earlier search never overwrites the answer to a newer one', async () => {
  const { calls, hook } = setup();
  act(() => hook.result.current.search('s'));
  act(() => jest.advanceTimersByTime(300));
  act(() => hook.result.current.search('sony'));
  act(() => jest.advanceTimersByTime(300));
  expect(calls.map((c) => c.text)).toEqual(['s', 'sony']);

  await settle(() => calls[1]!.answer(['Sony Group Corporation']));
  await settle(() => calls[0]!.answer(['Samsung', 'Sharp', 'Sony Group Corporation']));
  expect(hook.result.current).toEqual(expect.objectContaining({ loading: false, results: ['Sony Group Corporation'] }));
});

// The results kept meanwhile are not shown: while loading, the menu says Loading... instead.
test('while a newer text waits to be sent, an answer to the older one does not end the loading state', async () => {
  const { calls, hook } = setup();
  act(() => hook.result.current.search('s'));
  act(() => jest.advanceTimersByTime(300));
  act(() => hook.result.current.search('so'));
  await settle(() => calls[0]!.answer(['Samsung']));
  expect(hook.result.current.loading).toBe(true);
  act(() => jest.advanceTimersByTime(300));
  await settle(() => calls[1]!.answer(['Sony Group Corporation']));
  expect(hook.result.current).toEqual(expect.objectContaining({ loading: false, results: ['Sony Group Corporation'] }));
});

test('a failed search empties the results, ends loading and reports the error; a late failure is ignored', async () => {
  const { calls, onError, hook } = setup();
  act(() => hook.result.current.search('a'));
  act(() => jest.advanceTimersByTime(300));
  await settle(() => calls[0]!.answer(['Apple, Inc.']));
  act(() => hook.result.current.search('ap'));
  act(() => jest.advanceTimersByTime(300));
  const failure = new Error('Network Error');
  await settle(() => calls[1]!.fail(failure));
  expect(hook.result.current).toEqual(expect.objectContaining({ loading: false, results: [] }));
  expect(onError).toHaveBeenCalledWith(failure);

  act(() => hook.result.current.search('app'));
  act(() => jest.advanceTimersByTime(300));
  act(() => hook.result.current.search('appl'));
  await settle(() => calls[2]!.fail(new Error('late')));
  expect(onError).toHaveBeenCalledTimes(1);
});

test('after unmount nothing is sent and no answer is applied', () => {
  const { find, hook } = setup();
  act(() => hook.result.current.search('x'));
  hook.unmount();
  act(() => jest.advanceTimersByTime(1000));
  expect(find).not.toHaveBeenCalled();
});
