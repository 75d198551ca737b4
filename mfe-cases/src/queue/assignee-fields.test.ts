// Which queues a bulk assignment's cases are in (docs/screens.md#cases-queue): what Assign to… asks
// api/cases/assignees/ about, or null when they are not known and a username is typed instead.
import type { CaseSummary } from '@veritas/shared';
import { MAX_ASSIGNEE_QUEUES_LENGTH } from '@veritas/shared/case-vocabulary';
import { assignQueues } from './assignee-fields';

const row = (id: number, queue: string) => ({ id, queue }) as CaseSummary;
const rows = [row(1, 'HUB2'), row(2, 'hub1'), row(3, 'HUB1'), row(4, 'RC-NORTH')];
const none = { allMatching: false, ids: [], rows, allLoaded: false, filterQueue: '', ownQueue: null };

test('ticked cases: the queues of the rows ticked, each once, in capitals, sorted', () => {
  expect(assignQueues({ ...none, ids: [3] })).toEqual(['HUB1']);
  expect(assignQueues({ ...none, ids: [1, 2, 3] })).toEqual(['HUB1', 'HUB2']);
  // The filter and the viewer's own queue do not matter: the rows ticked say where the cases are.
  expect(assignQueues({ ...none, ids: [4], filterQueue: 'HUB1', ownQueue: 'HUB1' })).toEqual(['RC-NORTH']);
  // Ticked rows no longer shown (a live change took them away) are not known.
  expect(assignQueues({ ...none, ids: [99] })).toBeNull();
});

test("all matching: the Queue filter's, else an incharge's own group's, else every row's once all are read", () => {
  const all = { ...none, allMatching: true, ids: [1] };
  expect(assignQueues({ ...all, filterQueue: ' rc-north ', ownQueue: 'hub1', allLoaded: true })).toEqual(['RC-NORTH']);
  expect(assignQueues({ ...all, ownQueue: 'hub1', allLoaded: true })).toEqual(['HUB1']);
  expect(assignQueues({ ...all, allLoaded: true })).toEqual(['HUB1', 'HUB2', 'RC-NORTH']);
  // More cases match than are read, in queues not known: a username is typed.
  expect(assignQueues(all)).toBeNull();
  expect(assignQueues({ ...all, rows: [], allLoaded: true })).toBeNull();
});

test(`more queues than api/cases/assignees/ takes (${MAX_ASSIGNEE_QUEUES_LENGTH} characters) are not asked about`, () => {
  const many = Array.from({ length: 200 }, (_, i) => row(i + 1, `HUB${String(i).padStart(3, '0')}`));
  expect(assignQueues({ ...none, rows: many, ids: many.slice(0, 100).map((r) => r.id) })).toHaveLength(100);
  expect(assignQueues({ ...none, rows: many, ids: many.map((r) => r.id) })).toBeNull();
});
