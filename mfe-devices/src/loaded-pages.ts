// The pages of a list as the cache holds them (useInfiniteQuery's data), read and changed as rows.
import type { InfiniteData } from '@veritas/shared/query';
import type { DevicePage, PageParam } from './api/devices';
import type { DeviceRow } from './device-rows';

export type DevicePages = InfiniteData<DevicePage, PageParam>;

/** The rows of the pages in order; a page appended leaves out the rows a live change already put in place. */
export function rowsOf(pages: readonly DevicePage[]): readonly DeviceRow[] {
  const seen = new Set<number>();
  const rows: DeviceRow[] = [];
  for (const page of pages)
    for (const row of page.items) {
      if (seen.has(row.record.id)) continue;
      seen.add(row.record.id);
      rows.push(row);
    }
  return rows;
}

/**
 * The pages with their rows replaced by `change(rows, boundary)`: `boundary` is the row the next
 * page's cursor names, as the server sent it (null when no page follows). Each page keeps its
 * cursor, so the next page continues after that row whatever `change` did above it.
 */
export function changeRows(
  data: DevicePages,
  change: (rows: readonly DeviceRow[], boundary: DeviceRow | null) => DeviceRow[],
): DevicePages {
  const last = data.pages.length - 1;
  const rows = change(rowsOf(data.pages), data.pages[last]?.boundary ?? null);
  let at = 0;
  const pages = data.pages.map((page, index) => {
    const end = index === last ? rows.length : Math.min(rows.length, at + page.items.length);
    const items = rows.slice(at, end);
    at = end;
    return { ...page, items };
  });
  return { ...data, pages };
}
