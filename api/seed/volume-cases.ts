// Benchmark volume's cases (docs/cases.md): one case for each flagged record (device_result
// E003–E010) of the volume that has none, made in bulk from device_records rather than through
// openCase (which at millions of records would take hours): reason = the result, queue = its hub
// (or its submitter's group) in capitals, opened at the submission (or the record's creation),
// due by the reason's hours in case_due_times. A spread of states by a hash of the record's id, the
// same on every load: about 55% open, 15% in review, 30% resolved with the five dispositions in
// turn; every case in review or resolved and two in five open ones assigned to a user who works
// every queue (central_ops, admin, super_admin). Each case gets its 'opened' timeline entry.
//
// PostgreSQL: one INSERT … SELECT for the cases and one for their entries, in one transaction;
// SQLite: the same in chunks of records, one transaction each. When the database holds no case
// yet, the secondary indexes of both tables are dropped first and built again at the end (one
// sort each instead of millions of random inserts). load:volume makes them after the records
// (bench/load-volume.ts); `load:cases` (load:volume --cases-only) alone, on a database already
// holding volume records.
import { sql } from 'kysely';
import { CASE_DISPOSITIONS, CASE_REASONS } from '@veritas/shared/domain';
import type { Db } from '../src/db/schema';
import { secondaryIndexes } from './volume-data';

export interface VolumeCasesOptions {
  /** The time resolutions may not pass (default now). */
  now?: Date;
  /** SQLite: records per chunk (default 200,000). */
  chunk?: number;
  /** Told after each chunk (SQLite) or the insert (PostgreSQL), with the cases made so far. */
  progress?: (made: number) => void;
}

export interface VolumeCasesResult {
  /** Cases made (each with its 'opened' entry). */
  cases: number;
  /** Making the cases and their entries. */
  insertMs: number;
  /** Building the indexes again and the planner's statistics. */
  indexMs: number;
}

const HOUR_MS = 3_600_000;
const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The case columns the statements fill, in order. */
const CASE_COLUMNS = [
  'tracking_id',
  'reason',
  'state',
  'disposition',
  'queue',
  'assignee_id',
  'due_at',
  'opened_at',
  'opened_by_id',
  'scanned_model',
  'scanned_manufacturer',
  'scanned_mac',
  'scanned_hardware_id',
  'resolved_at',
  'updated_at',
  'version',
].join(', ');

/**
 * The INSERT … SELECT of the cases of the flagged records `where` selects (an extra condition on
 * `d`, device_records), for `engine`.
 */
function casesInsert(db: Db, workers: readonly number[], nowMs: number, where: string, skipExisting: boolean): string {
  const pg = db.engine === 'postgres';
  /** An ISO text (as toISOString writes it) of milliseconds since the epoch. */
  const iso = (ms: string) =>
    pg
      ? `to_char(timestamp '1970-01-01' + (${ms}) * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : `(strftime('%Y-%m-%dT%H:%M:%S', (${ms}) / 1000, 'unixepoch') || '.' || printf('%03d', (${ms}) % 1000) || 'Z')`;
  const least = pg ? 'least' : 'min';
  const reasons = CASE_REASONS.map(quote).join(', ');
  const disposition = `case s.h2 % ${CASE_DISPOSITIONS.length} ${CASE_DISPOSITIONS.map((d, n) => `when ${n} then ${quote(d)}`).join(' ')} end`;
  const assignee =
    workers.length === 0
      ? 'null'
      : `case (s.h2 / 8) % ${workers.length} ${workers.map((id, n) => `when ${n} then ${id}`).join(' ')} end`;
  // Two multiplicative hashes of the id (Knuth's), their high 16 bits: the same spread on every load.
  const hashed = `
    select d.tracking_id, d.device_result as reason, d.submitted_by_id, d.submitted_device_name, d.submitted_manufacturer,
      coalesce(upper(d.hub_code), upper(g.code), '') as queue, t.hours,
      case when d.submit_ms is not null then d.submit_time else ${iso('d.created_ms')} end as opened_at,
      coalesce(d.submit_ms, d.created_ms) as opened_ms,
      ((d.id * 2654435761) % 4294967296) / 65536 as h1,
      ((d.id * 2246822519) % 4294967296) / 65536 as h2,
      d.id
    from device_records d
    join case_due_times t on t.reason = d.device_result
    left join users u on u.id = d.submitted_by_id
    left join groups g on g.id = u.group_id
    where d.device_result in (${reasons}) and coalesce(d.submit_ms, d.created_ms) is not null and ${where}
    ${skipExisting ? 'and not exists (select 1 from cases c where c.tracking_id = d.tracking_id)' : ''}`;
  const stated = `
    select s.*, case when s.h1 % 100 < 55 then 'open' when s.h1 % 100 < 70 then 'in_review' else 'resolved' end as state
    from (${hashed}) s`;
  const resolvedAt = iso(`${least}(s.opened_ms + (1 + s.h2 % 48) * ${HOUR_MS}, ${nowMs})`);
  return `
    insert into cases (${CASE_COLUMNS})
    select s.tracking_id, s.reason, s.state,
      case when s.state = 'resolved' then ${disposition} end,
      s.queue,
      case when s.state <> 'open' or (s.h2 / 80) % 10 < 4 then ${assignee} end,
      ${iso(`s.opened_ms + s.hours * ${HOUR_MS}`)},
      s.opened_at, s.submitted_by_id, s.submitted_device_name, s.submitted_manufacturer, null, null,
      case when s.state = 'resolved' then ${resolvedAt} end,
      case when s.state = 'resolved' then ${resolvedAt} else s.opened_at end,
      1
    from (${stated}) s
    order by s.id`;
}

/** The 'opened' entries of the cases after id `after`, as openCase writes them. */
function eventsInsert(db: Db, after: number): string {
  const details =
    db.engine === 'postgres'
      ? `json_build_object('result', reason, 'model', scanned_model, 'manufacturer', scanned_manufacturer, 'mac_address', null, 'hardware_id', null, 'queue', queue)::text`
      : `json_object('result', reason, 'model', scanned_model, 'manufacturer', scanned_manufacturer, 'mac_address', null, 'hardware_id', null, 'queue', queue)`;
  return `
    insert into case_events (case_id, at, kind, actor_id, note, details)
    select id, opened_at, 'opened', opened_by_id, null, ${details} from cases where id > ${after} order by id`;
}

async function maxId(db: Db, table: 'cases' | 'device_records'): Promise<number> {
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/**
 * Makes the cases of the volume's flagged records that have none (see the top of this file);
 * answers how many and how long it took.
 */
export async function loadVolumeCases(db: Db, options: VolumeCasesOptions = {}): Promise<VolumeCasesResult> {
  const { now = new Date(), chunk = 200_000, progress = () => undefined } = options;
  const workers = (
    await db.kysely
      .selectFrom('users')
      .select('id')
      .where('is_active', '=', 1)
      .where('role', 'in', ['central_ops', 'admin', 'super_admin'])
      .orderBy('id')
      .execute()
  ).map((row) => row.id);
  const before = await maxId(db, 'cases');
  // Empty: the indexes go and come back; otherwise records that already have a case keep it alone.
  const empty = before === 0 && !(await db.kysely.selectFrom('cases').select('id').limit(1).executeTakeFirst());
  const indexes = empty
    ? [...(await secondaryIndexes(db, 'cases')), ...(await secondaryIndexes(db, 'case_events'))]
    : [];
  const started = Date.now();
  let inserted: number;

  if (db.engine === 'postgres') {
    const client = await db.pg!.connect();
    try {
      await client.query('begin');
      for (const { name } of indexes) await client.query(`drop index ${name}`);
      await client.query(`set local work_mem = '256MB'`);
      await client.query(casesInsert(db, workers, now.getTime(), 'true', !empty));
      await client.query(eventsInsert(db, before));
      inserted = Date.now();
      await client.query(`set local maintenance_work_mem = '1GB'`);
      await client.query(`set local max_parallel_maintenance_workers = 2`);
      for (const { ddl } of indexes) await client.query(ddl);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
    progress((await maxId(db, 'cases')) - before);
    await sql`vacuum (analyze) cases, case_events`.execute(db.kysely);
  } else {
    const sqlite = db.sqlite!;
    for (const { name } of indexes) sqlite.exec(`drop index ${name}`);
    try {
      const last = await maxId(db, 'device_records');
      for (let from = 0; from < last; from += chunk) {
        await db.kysely.connection().execute(async () =>
          sqlite.transaction(() => {
            const caseFrom = Number(
              (sqlite.prepare('select coalesce(max(id), 0) as id from cases').get() as { id: number }).id,
            );
            sqlite.exec(casesInsert(db, workers, now.getTime(), `d.id > ${from} and d.id <= ${from + chunk}`, !empty));
            sqlite.exec(eventsInsert(db, caseFrom));
          })(),
        );
        progress((await maxId(db, 'cases')) - before);
        // Let other work of the process (a benchmark's timers) run between chunks.
        await new Promise((resolve) => setImmediate(resolve));
      }
      inserted = Date.now();
    } finally {
      for (const { ddl } of indexes) sqlite.exec(ddl);
    }
    await sql`analyze cases`.execute(db.kysely);
    await sql`analyze case_events`.execute(db.kysely);
  }
  const made = await db.kysely
    .selectFrom('cases')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('id', '>', before)
    .executeTakeFirstOrThrow();
  return { cases: Number(made.n), insertMs: inserted - started, indexMs: Date.now() - inserted };
}
