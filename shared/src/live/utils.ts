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
