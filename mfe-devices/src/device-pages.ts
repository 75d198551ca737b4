// The pick list served a page at a time (docs/screens.md#device-pick-list, server feature
// 'device-pages'): its filters, how they sit in the URL query and in the calls (api/devices.ts).
import { ALL_HUBS, DEVICE_ERRORS, type SelectOption } from '@veritas/shared';
import { DEVICE_STATUS_KEYS, MAX_SEARCH_LENGTH } from '@veritas/shared/domain';

/**
 * The value of the choices 'All Hubs', 'All Statuses' and 'All Results': that filter does not narrow
 * the list. It is ALL_HUBS, the console's value of 'All Hubs' wherever hubs are chosen.
 */
export const ALL_CHOICE = ALL_HUBS;

/** The Status filter: the server's value for each status text of docs/screens.md#status. */
export const STATUS_FILTERS: readonly SelectOption[] = Object.entries(DEVICE_STATUS_KEYS).map(([label, value]) => ({
  value,
  label,
}));

export const STATUS_CHOICES: readonly SelectOption[] = [
  { value: ALL_CHOICE, label: 'All Statuses' },
  ...STATUS_FILTERS,
];

/** The Result filter: passed, then each code of the device error catalogue with its title. */
export const RESULT_FILTERS: readonly SelectOption[] = [
  { value: 'passed', label: 'Passed' },
  ...DEVICE_ERRORS.map(({ code, title }) => ({ value: code, label: `${code}: ${title}` })),
];

export const RESULT_CHOICES: readonly SelectOption[] = [{ value: ALL_CHOICE, label: 'All Results' }, ...RESULT_FILTERS];

/** The filters as chosen: null when nothing is chosen, ALL_CHOICE for an 'All …' choice. */
export interface DeviceFilters {
  /** The tracking-ID text as typed (sent without surrounding spaces). */
  q: string;
  /** A hub code or ALL_CHOICE. */
  hub: string | null;
  /** One of DEVICE_STATUSES or ALL_CHOICE. */
  status: string | null;
  /** 'passed', an error code, or ALL_CHOICE. */
  result: string | null;
}

/** The tracking-ID text of the URL query, no longer than the filter box takes (MAX_SEARCH_LENGTH). */
export const queryText = (params: URLSearchParams) => (params.get('q') ?? '').slice(0, MAX_SEARCH_LENGTH);

/**
 * The filters of the URL query ?q=&hub=&status=&result=; unknown statuses and results are ignored,
 * text past MAX_SEARCH_LENGTH is cut.
 */
export function filtersFromQuery(params: URLSearchParams): DeviceFilters {
  const hub = params.get('hub')?.trim();
  return {
    q: queryText(params),
    hub: hub ? (hub.toLowerCase() === ALL_CHOICE ? ALL_CHOICE : hub) : null,
    status: chosenValue(STATUS_CHOICES, params.get('status')),
    result: chosenValue(RESULT_CHOICES, params.get('result')),
  };
}

/** The parameters of api/devices/ and api/devices/count/: the text trimmed; empty filters and 'All …' left out. */
export function filterParams(filters: DeviceFilters): Record<string, string> {
  const params: Record<string, string> = {};
  const q = filters.q.trim();
  if (q) params.q = q;
  for (const name of ['hub', 'status', 'result'] as const) {
    const value = filters[name];
    if (value && value !== ALL_CHOICE) params[name] = value;
  }
  return params;
}

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

/** The value of `options` that `chosen` names, ignoring case (a linked URL may differ in case); null for none or an unknown one. */
export function chosenValue(options: readonly SelectOption[], chosen: string | null): string | null {
  const wanted = chosen?.trim().toLowerCase();
  return (wanted && options.find((o) => o.value.toLowerCase() === wanted)?.value) || null;
}

/**
 * Rows the scroll area holds: the total when the server has said it and more pages follow
 * (placeholders stand for rows not loaded yet), else the rows loaded.
 */
export function scrollRows(loaded: number, total: number | undefined, hasMore: boolean): number {
  return hasMore && total !== undefined ? Math.max(loaded, total) : loaded;
}
