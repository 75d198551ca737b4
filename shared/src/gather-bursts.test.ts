// gatherBursts (shared/src/live/utils.ts): the live pages' rule for re-reading changes.
import { gatherBursts } from './live-events';

/** A run whose answer the test gives: `answer()` settles the oldest one still on its way. */
function heldRuns() {
  const answers: (() => void)[] = [];
  const run = jest.fn(() => new Promise<void>((resolve) => answers.push(resolve)));
  return { run, answer: () => answers.shift()!() };
}

/** Lets the promises settled so far run their callbacks. */
const settle = () => jest.advanceTimersByTimeAsync(0);

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test('a lone call runs without waiting for any timer; the calls of one task share that run', async () => {
  const { run } = heldRuns();
  const gathered = gatherBursts(run, 100);
  gathered();
  gathered();
  await Promise.resolve();
  expect(run).toHaveBeenCalledTimes(1);
});

test('a burst (calls while a run is on its way, or within the gap after its start) is gathered into one run after both; never two at once', async () => {
  const { run, answer } = heldRuns();
  const gathered = gatherBursts(run, 100);
  gathered();
  await settle();
  for (let i = 0; i < 10; i++) {
    gathered();
    await settle();
  }
  expect(run).toHaveBeenCalledTimes(1);
  // Answered within the gap: the next run waits for its end.
  answer();
  await jest.advanceTimersByTimeAsync(99);
  expect(run).toHaveBeenCalledTimes(1);
  await jest.advanceTimersByTimeAsync(1);
  expect(run).toHaveBeenCalledTimes(2);
  // Past the gap but still on its way: the next run waits for the answer.
  gathered();
  await jest.advanceTimersByTimeAsync(500);
  expect(run).toHaveBeenCalledTimes(2);
  answer();
  await settle();
  expect(run).toHaveBeenCalledTimes(3);
  answer();
  await jest.advanceTimersByTimeAsync(1000);
  expect(run).toHaveBeenCalledTimes(3);
});

test('cancel drops the gathered run; later calls run again', async () => {
  const { run, answer } = heldRuns();
  const gathered = gatherBursts(run, 100);
  gathered();
  await settle();
  answer();
  gathered();
  gathered.cancel();
  await jest.advanceTimersByTimeAsync(1000);
  expect(run).toHaveBeenCalledTimes(1);
  gathered();
  await settle();
  expect(run).toHaveBeenCalledTimes(2);
});
