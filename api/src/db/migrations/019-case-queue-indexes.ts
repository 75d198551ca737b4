// The case queue at volume (bench/cases.ts, docs/benchmarks.md#cases): most of its reads are of
// the active cases (open or in review, the default filter), which were read through indexes that
// hold the resolved cases too, the other filters checked one table row at a time. These indexes
// hold the active cases alone, in the queue's order (due time, then id), whole and led by each
// filter of its own, with the other filters' columns after the order's: a page's ids or a count
// of the active cases is then read from one index alone (queue.ts reads a page's ids first, then
// its rows), whatever the filters. whereCases (src/cases/repository.ts) writes the active states
// exactly as the indexes' predicate, with literals, so that both engines match it.
import { sql, type Kysely, type Migration } from 'kysely';

/** The predicate of the partial indexes, as whereCases writes the active filter. */
export const ACTIVE_CASES = `state in ('open', 'in_review')`;

/** The columns the queue's filters read besides the leading one. */
const FILTERED = ['reason', 'queue', 'assignee_id', 'opened_at', 'state'];

export function caseQueueIndexes(): Migration {
  return {
    async up(db: Kysely<any>) {
      const index = (name: string, lead: string[]) => {
        const columns = [...lead, 'due_at', 'id', ...FILTERED.filter((column) => !lead.includes(column))];
        return sql.raw(`create index ${name} on cases (${columns.join(', ')}) where ${ACTIVE_CASES}`).execute(db);
      };
      await index('cases_active_due', []);
      for (const column of ['reason', 'queue', 'assignee_id']) await index(`cases_active_${column}_due`, [column]);
    },
  };
}
