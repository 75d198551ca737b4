// The report's range: calendar days (@veritas/shared/domain's localMidnight), taken in the server's local time.

/**
 * Both ends inclusive, in milliseconds since the epoch: compared with created_ms, the created date
 * as the dashboard reads it (src/writes/derived-columns.ts).
 */
export interface TimeRange {
  first: number;
  last: number;
}

/** From the first millisecond of the start day to the last millisecond of the end day. */
export function dayRange(start: Date, end: Date): TimeRange {
  const dayAfterEnd = new Date(end);
  dayAfterEnd.setDate(dayAfterEnd.getDate() + 1);
  return { first: start.getTime(), last: dayAfterEnd.getTime() - 1 };
}
