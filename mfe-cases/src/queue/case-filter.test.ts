import {
  NO_FILTER,
  filterFromParams,
  filterOfView,
  isFiltered,
  paramsOfFilter,
  queryOfFilter,
  sameFilters,
} from './case-filter';

describe('filters in the URL', () => {
  test('read every field; values the page would not offer are "any"', () => {
    const params = new URLSearchParams(
      'reason=E004&state=in_review&queue=%20HUB1%20&assignee=ravi&overdue=1&from=2026-11-01&to=2026-11-02',
    );
    expect(filterFromParams(params)).toEqual({
      reason: 'E004',
      state: 'in_review',
      queue: 'HUB1',
      assignee: 'ravi',
      overdue: true,
      from: '2026-11-01',
      to: '2026-11-02',
    });
    const odd = new URLSearchParams(
      `reason=E002&state=closed&queue=${'Q'.repeat(65)}&assignee=${'u'.repeat(151)}&overdue=true&from=2026-02-31&to=today`,
    );
    expect(filterFromParams(odd)).toEqual(NO_FILTER);
  });

  test('the state is Active by default, and Active is left out of the URL and the calls', () => {
    expect(filterFromParams(new URLSearchParams()).state).toBe('active');
    expect(queryOfFilter({ ...NO_FILTER, state: 'active' })).toEqual({});
    expect(queryOfFilter({ ...NO_FILTER, state: 'all' })).toEqual({ state: 'all' });
  });

  test('write only the fields set, overdue as 1, and read back the same filters', () => {
    const filter = { ...NO_FILTER, reason: 'E010' as const, assignee: 'none', overdue: true, to: '2026-11-24' };
    expect(paramsOfFilter(filter)).toEqual({ reason: 'E010', assignee: 'none', overdue: '1', to: '2026-11-24' });
    expect(filterFromParams(new URLSearchParams(paramsOfFilter(filter)))).toEqual(filter);
    expect(isFiltered(NO_FILTER)).toBe(false);
    expect(isFiltered(filter)).toBe(true);
  });

  test('a saved view’s filters read as a URL’s, empty values and unknown ones left out', () => {
    expect(filterOfView({ queue: 'RC9', overdue: '0', reason: '', state: 'resolved', q: 'TID1' })).toEqual({
      ...NO_FILTER,
      queue: 'RC9',
      state: 'resolved',
    });
    expect(sameFilters(filterOfView({ state: 'active' }), NO_FILTER)).toBe(true);
    expect(sameFilters(filterOfView({ state: 'all' }), NO_FILTER)).toBe(false);
  });
});
