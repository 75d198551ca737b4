// The pick list's filters, held in the URL query (docs/screens.md#device-pick-list).
import { useSearchParams } from '@veritas/shared';
import { useCallback, useState } from 'react';
import { filtersFromQuery, queryOfFilters, queryText, type DeviceFilters } from './device-pages';

/**
 * The filters of the URL query (?q=&hub=&status=&result=), and a setter that replaces the current
 * history entry. The tracking-ID text is kept in the page as typed (router updates run in a
 * transition, too late for a text box) and copied to the URL.
 */
export function useDeviceFilters(): [DeviceFilters, (change: Partial<DeviceFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const [q, setQ] = useState(() => queryText(params));
  const filters: DeviceFilters = { ...filtersFromQuery(params), q };
  const change = useCallback(
    (update: Partial<DeviceFilters>) => {
      if (update.q !== undefined) setQ(update.q);
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const name of ['q', 'hub', 'status', 'result'] as const) next.delete(name);
          // The text as last typed: the URL may not show it yet.
          const merged = { ...filtersFromQuery(current), q, ...update };
          for (const [name, value] of Object.entries(queryOfFilters(merged))) next.set(name, value);
          return next;
        },
        { replace: true },
      );
    },
    [q, setParams],
  );
  return [filters, change];
}
