// Reading the audit trail (docs/audit.md#reading-it, docs/screens.md#audit-log): pages newest first with a keyset
// cursor, and the CSV export of the same filters, streamed. Every filter has an index with seq
// (migration 010), and the time range is first turned into a range of seq through the index on
// created_ms (which never decreases along seq), so each search is an index range at any size.
import type { AuditEntry, AuditFilterQuery, AuditPage, AuditPageQuery } from '@veritas/shared/domain';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database, Db } from '../db/schema';
import { UTF8_BOM, csvLine } from '../report/csv';
import { auditEntryOf } from './trail';

const DEFAULT_LIMIT = 50;
const EXPORT_PAGE = 1000;

type AuditQuery = SelectQueryBuilder<Database, 'audit_log', object>;

/** The smallest seq written at or after `ms`; null when none was. */
export async function firstSeqFrom(kysely: Kysely<Database>, ms: number): Promise<number | null> {
  const row = await kysely
    .selectFrom('audit_log')
    .select('seq')
    .where('created_ms', '>=', ms)
    .orderBy('created_ms')
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.seq) : null;
}

interface Filtered {
  /** The equalities of the filters. */
  query: AuditQuery;
  /** The range of seq the time range covers: [low, high); null ends are open. */
  low: number | null;
  high: number | null;
}

/** The filters as equalities and a range of seq; null when nothing can match. */
async function filtered(db: Db, filter: AuditFilterQuery): Promise<Filtered | null> {
  let query: AuditQuery = db.kysely.selectFrom('audit_log');
  let low: number | null = null;
  let high: number | null = null;
  if (filter.since) {
    low = await firstSeqFrom(db.kysely, Date.parse(filter.since));
    if (low === null) return null;
  }
  if (filter.until) high = await firstSeqFrom(db.kysely, Date.parse(filter.until));
  if (filter.actor) query = query.where('actor_name', '=', filter.actor);
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.target_kind) query = query.where('target_kind', '=', filter.target_kind);
  if (filter.target) query = query.where('target_label', '=', filter.target);
  if (filter.outcome) query = query.where('outcome', '=', filter.outcome);
  return { query, low, high };
}

/** Up to `limit` entries of `query` with seq in [low, below), newest first. */
async function entriesIn(query: AuditQuery, low: number | null, below: number | null, limit: number) {
  let bounded = query;
  if (low !== null) bounded = bounded.where('seq', '>=', low);
  if (below !== null) bounded = bounded.where('seq', '<', below);
  const rows = await bounded.selectAll().orderBy('seq', 'desc').limit(limit).execute();
  return rows.map(auditEntryOf);
}

/** The smaller of two upper bounds, null being none. */
const lower = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

/** How long a page may search before answering what it found. */
const PAGE_BUDGET_MS = 150;
/** The first window of seq a page searches; each next one is twice as wide. */
const FIRST_WINDOW = 50_000;

/**
 * A page of entries matching the filters, newest first, older than `before`. It searches windows
 * of seq, newest first, each one index range per filter, until the page is full or the range is
 * exhausted. Filters that seldom hold together could otherwise read one filter's whole index to
 * find no entry: when the next window would likely end past PAGE_BUDGET_MS (it takes about twice
 * the last one's time), the page answers what it found (maybe nothing) with `next` where its
 * search stopped, so every page answers in bounded time and `next` continues it.
 */
export async function auditPage(
  db: Db,
  { before, limit: limitText, ...filter }: AuditPageQuery,
  { budgetMs = PAGE_BUDGET_MS, firstWindow = FIRST_WINDOW } = {},
): Promise<AuditPage> {
  const limit = limitText ? Number(limitText) : DEFAULT_LIMIT;
  const found = await filtered(db, filter);
  if (!found) return { entries: [], next: null };
  const { query, low } = found;
  const started = performance.now();
  let below = lower(before === undefined ? null : Number(before), found.high);
  if (below === null) {
    const newest = await db.kysely
      .selectFrom('audit_log')
      .select('seq')
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!newest) return { entries: [], next: null };
    below = Number(newest.seq) + 1;
  }
  const floor = low ?? 1;
  const entries: AuditEntry[] = [];
  for (let window = firstWindow; ; window *= 2) {
    const from = Math.max(floor, below - window);
    const windowStarted = performance.now();
    // One more than asked tells whether a page follows.
    entries.push(...(await entriesIn(query, from, below, limit + 1 - entries.length)));
    const windowMs = performance.now() - windowStarted;
    if (entries.length > limit) {
      entries.length = limit;
      return { entries, next: String(entries[limit - 1]!.seq) };
    }
    below = from;
    if (below <= floor) return { entries, next: null };
    // The next window is twice as wide: stop now when it would likely end past the budget.
    if (performance.now() - started + 2 * windowMs > budgetMs) return { entries, next: String(below) };
  }
}

export const AUDIT_CSV_COLUMNS = [
  'Seq',
  'Time',
  'Actor kind',
  'Actor',
  'Actor id',
  'Role',
  'Address',
  'Action',
  'Target kind',
  'Target id',
  'Target',
  'Outcome',
  'Details',
  'Hash',
];

function csvCells(entry: AuditEntry): string[] {
  const { actor, target } = entry;
  return [
    String(entry.seq),
    entry.time,
    actor.kind,
    actor.name,
    actor.id ?? '',
    actor.role ?? '',
    entry.address ?? '',
    entry.action,
    target?.kind ?? '',
    target?.id ?? '',
    target?.label ?? '',
    entry.outcome,
    entry.details === null ? '' : JSON.stringify(entry.details),
    entry.hash,
  ];
}

/** The entries matching the filters, newest first, as CSV text a page at a time (cells formula-safe, as the report's). */
export async function* auditCsv(db: Db, filter: AuditFilterQuery): AsyncGenerator<string> {
  yield UTF8_BOM + csvLine(AUDIT_CSV_COLUMNS);
  const found = await filtered(db, filter);
  if (!found) return;
  let before = found.high;
  for (;;) {
    const entries = await entriesIn(found.query, found.low, before, EXPORT_PAGE);
    if (entries.length > 0) yield entries.map((entry) => csvLine(csvCells(entry))).join('');
    if (entries.length < EXPORT_PAGE) return;
    before = entries[entries.length - 1]!.seq;
  }
}
