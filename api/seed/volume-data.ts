// Benchmark volume: the demo's hubs and users (and, for realism at millions of records, more hubs
// with their own operators and verifiers) with any number of device records in every state,
// loaded in bulk. The demo data itself goes through the field scans' code (demo.ts); at this
// volume that would take hours, and benchmarks measure reading, not scanning. The records come
// from the generator the console's tests build theirs with (@veritas/shared/testing/records), in
// the order they were created, as uploads store them.
//
// The load is as fast as each engine allows: the secondary indexes of device_records are dropped
// and built again at the end (one sort each instead of millions of random inserts), PostgreSQL
// takes the rows through COPY, SQLite through one prepared multi-row INSERT in large
// transactions; the pick list's search table, the tracking IDs' short pieces (id-grams.ts) and the
// summaries and the dashboard's are built once at the end.
import type { DeviceRecord, UserRef } from '@veritas/shared/domain';
import { seededRandom, volumeRecord, type VolumeHub, type VolumeOptions } from '@veritas/shared/testing/records';
import { sql, type Selectable } from 'kysely';
import type { PoolClient } from 'pg';
import { hashPassword } from '../src/auth/password-hashing';
import { copyRows } from '../src/db/copy-rows';
import type { Db, DeviceRecordsTable } from '../src/db/schema';
import { nowIso } from '../src/db/schema';
import { DEMO_PASSWORD, seedDemoOrganization } from './demo';
import { fillIdGrams } from '../src/devices/id-grams';
import { derivedColumns, type DerivedColumns } from '../src/writes/derived-columns';
import { rebuildSummaries } from '../src/writes/record-changes';
import { CATALOGUE } from './field/catalogue';

/** The demo's hubs, each with its operator, its verifier and the return centre that detaches its devices. */
const DEMO_HUBS: readonly VolumeHub[] = [
  { code: 'BLR01', operator: 'wm_blr', verifier: 'exec_blr', rc: 'rc_south' },
  { code: 'DEL02', operator: 'wm_del', verifier: 'exec_del', rc: 'rc_north' },
  { code: 'MUM03', operator: 'wm_mum', verifier: 'exec_mum', rc: 'rc_north' },
  { code: 'HYD04', operator: 'wm_hyd', verifier: 'former_exec_hyd', rc: 'rc_south' },
];

/** The demo hubs, then HUB05, HUB06… up to `count`, each with its operator and verifier. */
export function volumeHubs(count: number): VolumeHub[] {
  const extra = Array.from({ length: Math.max(0, count - DEMO_HUBS.length) }, (_, n): VolumeHub => {
    const code = `HUB${String(DEMO_HUBS.length + n + 1).padStart(2, '0')}`;
    return {
      code,
      operator: `wm_${code.toLowerCase()}`,
      verifier: `exec_${code.toLowerCase()}`,
      rc: n % 2 === 0 ? 'rc_north' : 'rc_south',
    };
  });
  return [...DEMO_HUBS, ...extra].slice(0, Math.max(1, count));
}

/** Every column of device_records but the id and the change stamps (the defaults give them), as stored. */
export type StoredRecord = Omit<
  Selectable<DeviceRecordsTable>,
  'id' | 'upload_id' | 'upload_row' | 'change_order' | 'changed_ms' | keyof DerivedColumns
> &
  DerivedColumns;

/**
 * The row of a record, every stored column: its own fields, then the derived ones. The bulk
 * writers below take their column list from this row, so a column added here is loaded with no
 * other change. A user that does not exist (any more) leaves its step without a name.
 */
export function storedRow(record: DeviceRecord, userIds: ReadonlyMap<string, number>): StoredRecord {
  const expected = record.tracking_id;
  const flag = (value: boolean) => (value ? 1 : 0);
  const idOf = (user: UserRef | null) => (user === null ? null : (userIds.get(user.username) ?? null));
  const row = {
    tracking_id: expected.tracking_id,
    hub_code: expected.hub_code,
    created_date: expected.created_date,
    device_type: expected.device_type,
    is_blindpick: flag(expected.is_Blindpick),
    blind_brand: expected.Blind_brand,
    blind_model: expected.Blind_model,
    device_model_name: expected.device_model_name,
    device_brand: expected.device_brand,
    is_submit: flag(record.is_submit),
    submit_time: record.submit_time,
    submitted_by_id: idOf(record.submitted_by),
    submitted_device_name: record.submitted_device_name,
    submitted_manufacturer: record.submitted_manufacturer,
    device_result: record.device_result,
    is_verified: flag(record.is_verified),
    verify_time: record.verify_time,
    verified_by_id: idOf(record.verified_by),
    is_verified_rc: flag(record.is_verified_rc),
    verified_by_rc_id: idOf(record.verified_by_rc),
    verify_time_rc: record.verify_time_rc,
    is_verified_rc_by: flag(record.is_verified_rc_by),
    // Bulk records were never scanned: no doorstep capture.
    mac_address: null,
    hardware_id: null,
  };
  // Object.assign, not a spread: spreading an object this wide costs V8 ~10 µs, most of a row's time.
  return Object.assign(row, derivedColumns(row));
}

export interface VolumeLoadOptions {
  records: number;
  seed?: number;
  /** How many hubs the records spread over (default 4: the demo's). */
  hubs?: number;
  /** Told after each batch stored, with the number of records stored so far. */
  progress?: (stored: number) => void;
}

export interface VolumeLoadTimes {
  /** Generating and inserting the rows. */
  insertMs: number;
  /** Building the indexes, the search tables and the summaries afterwards. */
  indexMs: number;
}

/** The hubs beyond the demo's, as groups with an operator and a verifier each (one password hash for all). */
async function seedVolumeHubs(db: Db, hubs: readonly VolumeHub[]): Promise<void> {
  const extra = hubs.filter((hub) => !DEMO_HUBS.some((demo) => demo.code === hub.code));
  if (extra.length === 0) return;
  const present = new Set((await db.kysely.selectFrom('groups').select('code').execute()).map((g) => g.code));
  const missing = extra.filter((hub) => !present.has(hub.code));
  if (missing.length === 0) return;
  await db.kysely
    .insertInto('groups')
    .values(missing.map((hub) => ({ name: hub.code, code: hub.code, organization: 'hub' as const })))
    .execute();
  const groupIds = new Map(
    (await db.kysely.selectFrom('groups').select(['id', 'code']).execute()).map((g) => [g.code, g.id]),
  );
  const password_hash = await hashPassword(DEMO_PASSWORD);
  const created_at = nowIso();
  await db.kysely
    .insertInto('users')
    .values(
      missing.flatMap((hub) =>
        (
          [
            [hub.operator, 'operators'],
            [hub.verifier, 'executive'],
          ] as const
        ).map(([username, role]) => ({
          username,
          email: `${username}@demo.veritas.local`,
          password_hash,
          role,
          is_active: 1,
          group_id: groupIds.get(hub.code) ?? null,
          created_at,
        })),
      ),
    )
    .execute();
}

/** The rows of the volume, one at a time (a seeded source and a fixed `now` give the same volume). */
function* volumeRows(volume: VolumeOptions, userIds: ReadonlyMap<string, number>): Generator<StoredRecord> {
  for (let i = 0; i < volume.count; i++) yield storedRow(volumeRecord(i, volume), userIds);
}

/**
 * The secondary indexes of `table` (not its primary key nor its unique constraints), as their DDL:
 * dropped before a bulk load and built again after it.
 */
export async function secondaryIndexes(db: Db, table: string): Promise<{ name: string; ddl: string }[]> {
  if (db.engine === 'postgres') {
    const { rows } = await sql<{ name: string; ddl: string }>`
      select indexname as name, indexdef as ddl from pg_indexes
      where schemaname = current_schema() and tablename = ${table}
        and indexname not in (select conname from pg_constraint where conrelid = ${table}::regclass)`.execute(
      db.kysely,
    );
    return rows;
  }
  const { rows } = await sql<{ name: string; ddl: string }>`
    select name, sql as ddl from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(
    db.kysely,
  );
  return rows;
}

/** Batches of rows per SQLite INSERT, and per transaction. */
const SQLITE_ROWS_PER_INSERT = 500;
const SQLITE_ROWS_PER_TRANSACTION = 100_000;

async function insertSqlite(db: Db, rows: Iterator<StoredRecord>, progress: (stored: number) => void): Promise<void> {
  const sqlite = db.sqlite!;
  let first = rows.next();
  if (first.done) return;
  const columns = Object.keys(first.value) as (keyof StoredRecord)[];
  const row = `(${columns.map(() => '?').join(', ')})`;
  const insertOf = (count: number) =>
    sqlite.prepare(`insert into device_records (${columns.join(', ')}) values ${Array(count).fill(row).join(', ')}`);
  const full = insertOf(SQLITE_ROWS_PER_INSERT);
  let stored = 0;
  const transaction = sqlite.transaction(() => {
    let inTransaction = 0;
    const values: unknown[] = [];
    let batch = 0;
    while (!first.done && inTransaction < SQLITE_ROWS_PER_TRANSACTION) {
      const record = first.value;
      for (const column of columns) values.push(record[column]);
      batch++;
      inTransaction++;
      first = rows.next();
      if (batch === SQLITE_ROWS_PER_INSERT) {
        full.run(values);
        values.length = 0;
        batch = 0;
      }
    }
    if (batch > 0) insertOf(batch).run(values);
    stored += inTransaction;
  });
  while (!first.done) {
    await db.kysely.connection().execute(async () => transaction());
    progress(stored);
    // Let other work of the process (a benchmark's timers) run between transactions.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * The user ids of the rows come from the users table itself, so the load skips checking each
 * against it (three lookups a row, most of COPY's time) where the role may: a superuser's
 * session_replication_role. Elsewhere the checks run.
 */
async function skipForeignKeyChecks(client: PoolClient): Promise<void> {
  await client.query('savepoint replica_role');
  try {
    await client.query(`set local session_replication_role = replica`);
    await client.query('release savepoint replica_role');
  } catch {
    await client.query('rollback to savepoint replica_role');
  }
}

/** COPY of `rows` (objects with the same keys, the columns) into device_records, as a stream. */
export async function copyPostgres<Row extends object>(
  client: PoolClient,
  rows: Iterator<Row>,
  progress: (stored: number) => void,
): Promise<void> {
  const first = rows.next();
  if (first.done) return;
  const columns = Object.keys(first.value) as (keyof Row & string)[];
  function* values(): Iterator<unknown[]> {
    for (let next = first; !next.done; next = rows.next()) yield columns.map((column) => next.value[column]);
  }
  await copyRows(client, 'device_records', columns, values(), progress);
}

/**
 * Stores `rows` into a database without device records, as fast as the engine allows (see the
 * top of this file), then builds the indexes, the search tables and the summaries. Answers how
 * long the insert and the builds took.
 */
export async function bulkLoad(
  db: Db,
  rows: Iterable<StoredRecord>,
  progress: (stored: number) => void = () => undefined,
): Promise<VolumeLoadTimes> {
  if (await db.kysely.selectFrom('device_records').select('id').limit(1).executeTakeFirst()) {
    throw new Error('The bulk loader fills a database without device records; this one has some.');
  }
  const indexes = await secondaryIndexes(db, 'device_records');
  const searchIndexes = db.engine === 'postgres' ? await secondaryIndexes(db, 'device_search') : [];
  const iterator = rows[Symbol.iterator]();
  const started = Date.now();
  let inserted: number;

  if (db.engine === 'postgres') {
    // One transaction: the indexes come back whatever happens, and a failed load leaves nothing.
    const client = await db.pg!.connect();
    try {
      await client.query('begin');
      for (const { name } of indexes) await client.query(`drop index ${name}`);
      await skipForeignKeyChecks(client);
      await copyPostgres(client, iterator, progress);
      inserted = Date.now();
      // Index builds sort in memory rather than in temporary files, with a parallel worker.
      await client.query(`set local maintenance_work_mem = '1GB'`);
      await client.query(`set local max_parallel_maintenance_workers = 2`);
      for (const { ddl } of indexes) await client.query(ddl);
      // The search table (search-index.ts) filled the same way, and nothing left in its tail.
      for (const { name } of searchIndexes) await client.query(`drop index ${name}`);
      await client.query(
        'insert into device_search (id, tracking_key) select id, lower(tracking_id) from device_records',
      );
      for (const { ddl } of searchIndexes) await client.query(ddl);
      await client.query(
        'update device_search_state set indexed_through = (select coalesce(max(id), 0) from device_records)',
      );
      await client.query('commit');
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
    await rebuildSummaries(db);
    // Statistics for the planner, and a visibility map so index-only scans skip the table.
    await sql`vacuum (analyze) device_records, device_search`.execute(db.kysely);
  } else {
    const sqlite = db.sqlite!;
    for (const { name } of indexes) sqlite.exec(`drop index ${name}`);
    try {
      await insertSqlite(db, iterator, progress);
      inserted = Date.now();
    } finally {
      for (const { ddl } of indexes) sqlite.exec(ddl);
    }
    await sql`insert into device_search (device_search) values ('rebuild')`.execute(db.kysely);
    await sql`update device_search_state set indexed_through = (select coalesce(max(id), 0) from device_records)`.execute(
      db.kysely,
    );
    await rebuildSummaries(db);
    await sql`analyze`.execute(db.kysely);
  }
  await fillIdGrams(db.kysely);
  return { insertMs: inserted - started, indexMs: Date.now() - inserted };
}

/**
 * Fills a database without device records with the demo organization, the extra hubs and
 * `records` bulk device records (bulkLoad).
 */
export async function loadVolumeData(
  db: Db,
  { records, seed = 20250101, hubs = DEMO_HUBS.length, progress }: VolumeLoadOptions,
): Promise<VolumeLoadTimes> {
  const volumeHubList = volumeHubs(hubs);
  await seedDemoOrganization(db);
  await seedVolumeHubs(db, volumeHubList);
  const users = await db.kysely.selectFrom('users').select(['id', 'username']).execute();
  const userIds = new Map(users.map((u) => [u.username, u.id]));
  const volume: VolumeOptions = {
    rand: seededRandom(seed),
    now: Date.now(),
    count: records,
    hubs: volumeHubList,
    devices: CATALOGUE,
  };
  return bulkLoad(db, volumeRows(volume, userIds), progress);
}
