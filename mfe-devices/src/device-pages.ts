// The pick list served a page at a time (docs/screens.md#device-pick-list, server feature
// 'device-pages'): its filters, how they sit in the URL query and in the calls (api/devices.ts).
import { ALL_HUBS, type SelectOption } from '@veritas/shared';
import { choiceOf, type DeviceFilters } from '@veritas/shared/device-list';

// The filters as the calls take them are the first calls' (docs/architecture.md#first-rows).
export {
  ALL,
  devicesKey,
  filterParams,
  filtersFromQuery,
  NO_FILTERS,
  RESULT_CHOICES,
  RESULT_FILTERS,
  STATUS_CHOICES,
  STATUS_FILTERS,
  type DeviceFilters,
  type StatusFilter,
} from '@veritas/shared/device-list';

/** The filters as the URL query holds them: what was chosen, the text as typed; nothing for an empty one. */
export function queryOfFilters(filters: DeviceFilters): Record<string, string> {
  const query: Record<string, string> = {};
  for (const name of ['q', 'hub', 'status', 'result'] as const) {
    const value = filters[name];
    if (value) query[name] = value;
  }
  return query;
}

/** The Hub filter's choices: 'All Hubs', the server's hubs, and the hub of the URL if the server did not name it. */
export function hubChoices(hubs: readonly string[], chosen: string | null): SelectOption[] {
  const options = [{ value: ALL_HUBS, label: 'All Hubs' }, ...hubs.map((hub) => ({ value: hub, label: hub }))];
  if (chosen && !options.some((o) => o.value.toLowerCase() === chosen.toLowerCase()))
    options.push({ value: chosen, label: chosen });
  return options;
}

/** The value of `options` that `chosen` names, ignoring case (a linked URL may differ in case). */
export function chosenValue(options: readonly SelectOption[], chosen: string | null): string | null {
  return choiceOf(options, chosen);
}

/**
 * Rows the scroll area holds: the total when the server has said it and more pages follow
 * (placeholders stand for rows not loaded yet), else the rows loaded.
 */
export function scrollRows(loaded: number, total: number | undefined, hasMore: boolean): number {
  return hasMore && total !== undefined ? Math.max(loaded, total) : loaded;
}
