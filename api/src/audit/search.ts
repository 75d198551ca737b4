// Reading the audit trail (docs/audit.md#reading-it, docs/screens.md#audit-log): pages newest first with a keyset
// cursor, and the CSV export of the same filters, streamed. Every filter has an index with seq
// (migration 010), and the time range is first turned into a range of seq through the index on
// created_ms (which never decreases along seq), so a page is one index range at any size.
import type { AuditEntry, AuditFilterQuery, AuditPage, AuditPageQuery } from '@veritas/shared/domain';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database, Db } from '../db/schema';
import { UTF8_BOM, csvLine } from '../report/csv';
import { auditEntryOf } from './trail';

const DEFAULT_LIMIT = 50;
const EXPORT_PAGE = 1000;

type AuditQuery = SelectQueryBuilder<Database, 'audit_log', object>;

/** The smallest seq written at or after `ms`; null when none was. */
async function firstSeqFrom(kysely: Kysely<Database>, ms: number): Promise<number | null> {
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

/** The filters as a range of seq [low, high) and equalities; null when nothing can match. */
async function filtered(db: Db, filter: AuditFilterQuery): Promise<AuditQuery | null> {
  let query: AuditQuery = db.kysely.selectFrom('audit_log');
  if (filter.since) {
    const low = await firstSeqFrom(db.kysely, Date.parse(filter.since));
    if (low === null) return null;
    query = query.where('seq', '>=', low);
  }
  if (filter.until) {
    const high = await firstSeqFrom(db.kysely, Date.parse(filter.until));
    if (high !== null) query = query.where('seq', '<', high);
  }
  if (filter.actor) query = query.where('actor_name', '=', filter.actor);
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.target_kind) query = query.where('target_kind', '=', filter.target_kind);
  if (filter.target) query = query.where('target_label', '=', filter.target);
  if (filter.outcome) query = query.where('outcome', '=', filter.outcome);
  return query;
}

async function entriesBefore(query: AuditQuery, before: number | null, limit: number): Promise<AuditEntry[]> {
  const bounded = before === null ? query : query.where('seq', '<', before);
  const rows = await bounded.selectAll().orderBy('seq', 'desc').limit(limit).execute();
  return rows.map(auditEntryOf);
}

/** A page of entries matching the filters, newest first, older than `before`. */
export async function auditPage(db: Db, { before, limit: limitText, ...filter }: AuditPageQuery): Promise<AuditPage> {
  const limit = limitText ? Number(limitText) : DEFAULT_LIMIT;
  const query = await filtered(db, filter);
  if (!query) return { entries: [], next: null };
  // One more than asked tells whether a page follows.
  const entries = await entriesBefore(query, before === undefined ? null : Number(before), limit + 1);
  const more = entries.length > limit;
  if (more) entries.length = limit;
  return { entries, next: more ? String(entries[entries.length - 1]!.seq) : null };
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
  const query = await filtered(db, filter);
  if (!query) return;
  let before: number | null = null;
  for (;;) {
    const entries = await entriesBefore(query, before, EXPORT_PAGE);
    if (entries.length > 0) yield entries.map((entry) => csvLine(csvCells(entry))).join('');
    if (entries.length < EXPORT_PAGE) return;
    before = entries[entries.length - 1]!.seq;
  }
}
