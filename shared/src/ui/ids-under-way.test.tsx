import { act, renderHook } from '@testing-library/react';
import { deferred } from '../testing/deferred';
import { useIdsUnderWay } from './ids-under-way';

describe("useIdsUnderWay: a row is under way from its action's start to its end, however it ends", () => {
  test('a row is under way while its work runs, and not after it succeeds', async () => {
    const { result } = renderHook(() => useIdsUnderWay());
    const work = deferred();
    let running!: Promise<void>;
    act(() => {
      running = result.current.whileUnderWay(7, () => work.promise);
    });
    expect(result.current.isUnderWay(7)).toBe(true);
    expect(result.current.isUnderWay(8)).toBe(false);
    await act(async () => {
      work.resolve();
      await running;
    });
    expect(result.current.isUnderWay(7)).toBe(false);
  });

  test('a row whose work fails is no longer under way, and the failure reaches the caller', async () => {
    const { result } = renderHook(() => useIdsUnderWay());
    const work = deferred();
    let running!: Promise<void>;
    act(() => {
      running = result.current.whileUnderWay(7, () => work.promise);
    });
    await act(async () => {
      work.reject(new Error('refused'));
      await expect(running).rejects.toThrow('refused');
    });
    expect(result.current.isUnderWay(7)).toBe(false);
  });

  test('two rows under way at once end each on its own', async () => {
    const { result } = renderHook(() => useIdsUnderWay());
    const first = deferred();
    const second = deferred();
    let runningFirst!: Promise<void>;
    act(() => {
      runningFirst = result.current.whileUnderWay(1, () => first.promise);
      void result.current.whileUnderWay(2, () => second.promise);
    });
    await act(async () => {
      first.resolve();
      await runningFirst;
    });
    expect(result.current.isUnderWay(1)).toBe(false);
    expect(result.current.isUnderWay(2)).toBe(true);
    await act(async () => second.resolve());
    expect(result.current.isUnderWay(2)).toBe(false);
  });
});
