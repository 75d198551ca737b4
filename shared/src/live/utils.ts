// Helpers of the live pages: gathering bursts of events, and putting changed records in a list.
import type { DeviceRecord } from '../types';

/** A function of `throttle`: call it as often as needed; `cancel` drops a run still pending. */
export interface Throttled {
  (): void;
  cancel(): void;
}

/**
 * Runs `run` at most once per `interval` ms, however often it is called: at once when the last run
 * is older than that (unless `leading` is false), else once at the end of the interval, so the last
 * call is always followed by a run. With `leading: false` it gathers a burst: the first call of a
 * burst runs `interval` ms later. Hand-written (a dozen lines) rather than adding lodash to the
 * shared singleton for one function.
 */
export function throttle(run: () => void, interval: number, { leading = true }: { leading?: boolean } = {}): Throttled {
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fire = () => {
    timer = null;
    last = Date.now();
    run();
  };
  const throttled = () => {
    if (timer) return;
    const now = Date.now();
    const at = Math.max(leading ? now : now + interval, last + interval);
    if (at <= now) fire();
    else timer = setTimeout(fire, at - now);
  };
  throttled.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return throttled;
}

/**
 * Runs `run` one call at a time, for the calls made meanwhile: a call when no run is under way nor
 * began within `gap` ms starts one at once (after the current task, so the calls of one task share
 * it); calls during a run, or within `gap` ms of its start, are gathered into one run after both.
 * So a lone call is not delayed, and only a burst is gathered. The promise of `run` must not reject.
 */
export function gatherBursts(run: () => Promise<unknown>, gap: number): Throttled {
  let wanted = false;
  let running = false;
  let scheduled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastStart = Number.NEGATIVE_INFINITY;
  const schedule = () => {
    if (scheduled || running || !wanted) return;
    scheduled = true;
    const wait = lastStart + gap - Date.now();
    // After the current task's other calls; a promise, as (faked) timers would come later.
    if (wait <= 0) void Promise.resolve().then(start);
    else timer = setTimeout(start, wait);
  };
  const start = () => {
    scheduled = false;
    timer = undefined;
    if (!wanted || running) return;
    wanted = false;
    running = true;
    lastStart = Date.now();
    void run().finally(() => {
      running = false;
      schedule();
    });
  };
  const gathered = () => {
    wanted = true;
    schedule();
  };
  gathered.cancel = () => {
    wanted = false;
    clearTimeout(timer);
    scheduled = false;
  };
  return gathered;
}

/**
 * The records with the changed ones put in: each replaces the record of its id, or is added. The
 * order is kept (the pages sort what they show).
 */
export function applyRecordChanges(records: readonly DeviceRecord[], changed: readonly DeviceRecord[]): DeviceRecord[] {
  const byId = new Map(changed.map((record) => [record.id, record]));
  const next = records.map((record) => {
    const replacement = byId.get(record.id);
    if (!replacement) return record;
    byId.delete(record.id);
    return replacement;
  });
  next.push(...byId.values());
  return next;
}
