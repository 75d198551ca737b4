import { isOverdue } from './case-vocabulary';

describe('isOverdue (docs/cases.md#due-times): past its due time and not resolved', () => {
  const now = Date.parse('2026-11-30T09:30:00.000Z');
  const due = (state: 'open' | 'in_review' | 'resolved', due_at: string) => isOverdue({ state, due_at }, now);

  test('an open or in-review case is overdue once its due time has passed, not at it', () => {
    expect(due('open', '2026-11-30T09:29:59.999Z')).toBe(true);
    expect(due('in_review', '2026-11-29T00:00:00.000Z')).toBe(true);
    expect(due('open', '2026-11-30T09:30:00.000Z')).toBe(false);
    expect(due('open', '2026-12-01T00:00:00.000Z')).toBe(false);
  });

  test('a resolved case is never overdue', () => {
    expect(due('resolved', '2026-11-01T00:00:00.000Z')).toBe(false);
  });

  test('without `now`, the time is the present', () => {
    expect(isOverdue({ state: 'open', due_at: new Date(Date.now() - 60_000).toISOString() })).toBe(true);
    expect(isOverdue({ state: 'open', due_at: new Date(Date.now() + 60_000).toISOString() })).toBe(false);
  });
});
