import type { AuditEntry } from '@veritas/shared';
import { inLocalZone } from '@veritas/shared/testing/time-zone';
import { NO_FILTER, filterFromParams, isFiltered, matchesFilter, paramsOfFilter, queryOfFilter } from './audit-filter';

const entry = (change: Partial<AuditEntry> = {}): AuditEntry => ({
  seq: 7,
  time: '2026-11-24T10:00:00.000Z',
  actor: { kind: 'user', id: '3', name: 'admin_demo', role: 'admin' },
  address: '127.0.0.1',
  action: 'user.created',
  target: { kind: 'user', id: '12', label: 'asha' },
  outcome: 'success',
  details: null,
  hash: 'ab'.repeat(32),
  ...change,
});

describe('filters in the URL', () => {
  test('read every field; values the page would not offer are "any"', () => {
    const params = new URLSearchParams(
      'actor=%20asha%20&action=user.created&target_kind=brand&target=Acme&outcome=refused&from=2026-11-01&to=2026-11-02',
    );
    expect(filterFromParams(params)).toEqual({
      actor: 'asha',
      action: 'user.created',
      target_kind: 'brand',
      target: 'Acme',
      outcome: 'refused',
      from: '2026-11-01',
      to: '2026-11-02',
    });
    const odd = new URLSearchParams('action=user.hacked&target_kind=planet&outcome=maybe&from=2026-02-31&to=yesterday');
    expect(filterFromParams(odd)).toEqual(NO_FILTER);
  });

  test('write only the fields set, and read back the same filters', () => {
    const filter = { ...NO_FILTER, action: 'session.sign-in' as const, to: '2026-11-24' };
    expect(paramsOfFilter(filter)).toEqual({ action: 'session.sign-in', to: '2026-11-24' });
    expect(filterFromParams(new URLSearchParams(paramsOfFilter(filter)))).toEqual(filter);
    expect(paramsOfFilter(NO_FILTER)).toEqual({});
    expect(isFiltered(NO_FILTER)).toBe(false);
    expect(isFiltered(filter)).toBe(true);
  });
});

describe('the query of audit/', () => {
  test('no filter is no parameter', () => {
    expect(queryOfFilter(NO_FILTER)).toEqual({});
  });

  test('since is local midnight of From, until local midnight of the day after To', () => {
    const filter = { ...NO_FILTER, actor: 'asha', outcome: 'failure' as const, from: '2026-11-01', to: '2026-11-02' };
    expect(inLocalZone('Asia/Kolkata', () => queryOfFilter(filter))).toEqual({
      actor: 'asha',
      outcome: 'failure',
      since: '2026-10-31T18:30:00.000Z',
      until: '2026-11-02T18:30:00.000Z',
    });
    expect(inLocalZone('America/New_York', () => queryOfFilter({ ...NO_FILTER, to: '2026-10-31' }))).toEqual({
      until: '2026-11-01T04:00:00.000Z',
    });
  });

  test('a day whose midnight a clock change skips starts at its first hour', () => {
    // Santiago moves from 24:00 to 01:00 on 2026-09-06: that day has no midnight.
    const { since, until } = inLocalZone('America/Santiago', () =>
      queryOfFilter({ ...NO_FILTER, from: '2026-09-06', to: '2026-09-05' }),
    );
    expect(since).toBe('2026-09-06T04:00:00.000Z');
    expect(until).toBe('2026-09-06T04:00:00.000Z');
  });
});

describe('matchesFilter: a live entry against the filters shown', () => {
  test('no filter matches everything', () => {
    expect(matchesFilter(entry(), {})).toBe(true);
    expect(matchesFilter(entry({ target: null, details: { a: 1 } }), {})).toBe(true);
  });

  test.each([
    [{ actor: 'admin_demo' }, true],
    [{ actor: 'admin' }, false],
    [{ actor: 'ADMIN_DEMO' }, false],
    [{ action: 'user.created' }, true],
    [{ action: 'user.deleted' }, false],
    [{ target_kind: 'user' }, true],
    [{ target_kind: 'group' }, false],
    [{ target: 'asha' }, true],
    [{ target: 'ash' }, false],
    [{ outcome: 'success' }, true],
    [{ outcome: 'refused' }, false],
    [{ actor: '', action: '', outcome: '' }, true],
    [{ actor: 'admin_demo', action: 'user.created', target_kind: 'user', target: 'asha', outcome: 'success' }, true],
    [{ actor: 'admin_demo', action: 'user.created', outcome: 'failure' }, false],
  ] as const)('%j: %s', (query, expected) => {
    expect(matchesFilter(entry(), query)).toBe(expected);
  });

  test('an entry without a target matches no target filter', () => {
    expect(matchesFilter(entry({ target: null }), { target_kind: 'user' })).toBe(false);
    expect(matchesFilter(entry({ target: null }), { target: 'asha' })).toBe(false);
  });

  test('since is included, until excluded', () => {
    const at = '2026-11-24T10:00:00.000Z';
    expect(matchesFilter(entry({ time: at }), { since: at })).toBe(true);
    expect(matchesFilter(entry({ time: at }), { until: at })).toBe(false);
    expect(matchesFilter(entry({ time: at }), { since: '2026-11-24T10:00:00.001Z' })).toBe(false);
    expect(matchesFilter(entry({ time: at }), { until: '2026-11-24T10:00:00.001Z' })).toBe(true);
    // Instants with an offset are compared as instants.
    expect(matchesFilter(entry({ time: at }), { since: '2026-11-24T15:30:00+05:30' })).toBe(true);
    expect(matchesFilter(entry({ time: at }), { until: '2026-11-24T15:30:00+05:30' })).toBe(false);
  });
});
