// The pick list table's scrolling: the virtualizer over its rows, where a list starts, how live
// changes keep the row under the user's eyes, and which rows are in view.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { DeviceRow } from './device-rows';
import { HEADER_HEIGHT, OVERSCAN, ROW_HEIGHT, topRow } from './row-geometry';

interface TableScrollOptions {
  rows: readonly DeviceRow[];
  /** Rows of the scroll area, placeholders included. */
  count: number;
  scrollKey: unknown;
  onRangeEnd?: (index: number) => void;
  onRangeStart?: (index: number) => void;
}

export function useTableScroll({ rows, count, scrollKey, onRangeEnd, onRangeStart }: TableScrollOptions) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // The sticky header sits above the rows inside the same scroll container.
    scrollMargin: HEADER_HEIGHT,
    overscan: OVERSCAN,
  });

  // A new filter result starts at the top rather than somewhere past its end.
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [scrollKey]);

  // docs/screens.md#live-updates: rows changed, added or removed above the row at the top of the
  // view must not move it. Before the browser paints the new rows, the scroll moves by as many
  // rows as that one moved. At the very top it stays at the top, where new rows show.
  const before = useRef({ rows, scrollKey });
  useLayoutEffect(() => {
    const previous = before.current;
    before.current = { rows, scrollKey };
    const element = scrollRef.current;
    if (!element || previous.scrollKey !== scrollKey || previous.rows === rows) return;
    const shift = anchorShift(previous.rows, rows, element.scrollTop);
    if (shift) element.scrollTop += shift * ROW_HEIGHT;
  }, [rows, scrollKey]);

  const items = virtualizer.getVirtualItems();
  const end = items.length ? items[items.length - 1]!.index : -1;
  useEffect(() => {
    onRangeEnd?.(end);
  }, [end, onRangeEnd]);
  const start = count ? Math.min(count - 1, topRow(virtualizer.scrollOffset ?? 0)) : -1;
  useEffect(() => {
    onRangeStart?.(start);
  }, [start, onRangeStart]);

  return { scrollRef, virtualizer, items };
}

/**
 * How many rows the row at the top of the view moved between two lists of rows (negative: up).
 * That row is the first one from the top of the view that is still there with the same time: a
 * row whose own time changed has moved away from under the user's eyes, and the rows after it stay.
 */
function anchorShift(before: readonly DeviceRow[], after: readonly DeviceRow[], scrollTop: number): number {
  if (scrollTop <= 0) return 0;
  const top = topRow(scrollTop);
  const same = (a: DeviceRow | undefined, b: DeviceRow | undefined) =>
    !!a && !!b && a.record.id === b.record.id && a.sortKey === b.sortKey;
  if (same(before[top], after[top])) return 0;
  const indexOf = new Map(after.map((row, index) => [row.record.id, index]));
  for (let i = top; i < before.length; i++) {
    const index = indexOf.get(before[i]!.record.id);
    if (index !== undefined && same(before[i], after[index])) return index - i;
  }
  return 0;
}
