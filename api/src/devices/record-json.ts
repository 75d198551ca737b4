// Device records as the API answers them (docs/screens.md#device-pick-list): DeviceRecord of @veritas/shared, the type
// the console reads them with. The database itself renders each record as JSON text (SQLite
// json_object, PostgreSQL row_to_json): for 100k records that is several times faster than
// building and stringifying JS objects. The shape is written once below, keyed by the shared
// types, so a field missing on either side fails the type check; only the JSON functions differ.
// (PostgreSQL's json_build_object is markedly slower than row_to_json over nested row values.)
import type { DeviceRecord, TrackingInfo, UserRef } from '@veritas/shared/domain';
import { sql, type Kysely, type RawBuilder, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Database, Db, DeviceRecordsTable, Engine } from '../db/schema';

type Json = RawBuilder<unknown>;

/** SQLite: a JSON object. PostgreSQL: a row value whose column names are the keys. Keys in the order written. */
function jsonObject<T>(engine: Engine, fields: { [K in keyof T]-?: Json }): Json {
  const entries = Object.entries<Json>(fields);
  if (engine === 'postgres') {
    return sql`(select j from (select ${sql.join(entries.map(([key, value]) => sql`${value} as ${sql.id(key)}`))}) j)`;
  }
  return sql`json_object(${sql.join(entries.flatMap(([key, value]) => [sql.lit(key), value]))})`;
}

/** A 0/1 column as a JSON boolean. */
function flag(engine: Engine, column: string): Json {
  return engine === 'postgres' ? sql`(${sql.ref(column)} = 1)` : sql`json(iif(${sql.ref(column)}, 'true', 'false'))`;
}

/** {username} of a joined user, or null. */
function userRef(engine: Engine, alias: string): Json {
  const username = sql.ref(`${alias}.username`);
  return sql`case when ${username} is null then null else ${jsonObject<UserRef>(engine, { username: sql`${username}` })} end`;
}

function recordJson(engine: Engine): Json {
  const col = (name: string): Json => sql`${sql.ref(`d.${name}`)}`;
  return jsonObject<DeviceRecord>(engine, {
    id: col('id'),
    tracking_id: jsonObject<TrackingInfo>(engine, {
      tracking_id: col('tracking_id'),
      hub_code: col('hub_code'),
      created_date: col('created_date'),
      device_type: col('device_type'),
      is_Blindpick: flag(engine, 'd.is_blindpick'),
      Blind_brand: col('blind_brand'),
      Blind_model: col('blind_model'),
      device_model_name: col('device_model_name'),
      device_brand: col('device_brand'),
    }),
    is_submit: flag(engine, 'd.is_submit'),
    submit_time: col('submit_time'),
    submitted_by: userRef(engine, 'sb'),
    submitted_device_name: col('submitted_device_name'),
    submitted_manufacturer: col('submitted_manufacturer'),
    is_verified: flag(engine, 'd.is_verified'),
    verify_time: col('verify_time'),
    verified_by: userRef(engine, 'vb'),
    is_verified_rc: flag(engine, 'd.is_verified_rc'),
    verified_by_rc: userRef(engine, 'rb'),
    verify_time_rc: col('verify_time_rc'),
    is_verified_rc_by: flag(engine, 'd.is_verified_rc_by'),
    device_result: col('device_result'),
  });
}

/** Rows of device_records, every column: what a page of records is cut from. */
type RecordRows = SelectQueryBuilder<Database, 'device_records', Selectable<DeviceRecordsTable>>;

/** Each record of `rows` as JSON text with its id; the rows are cut first, so the JSON is built for them only. */
function asJson(db: Db, rows: RecordRows, kysely: Kysely<Database> = db.kysely) {
  const json = recordJson(db.engine);
  return (
    kysely
      .selectFrom(rows.as('d'))
      .leftJoin('users as sb', 'sb.id', 'd.submitted_by_id')
      .leftJoin('users as vb', 'vb.id', 'd.verified_by_id')
      .leftJoin('users as rb', 'rb.id', 'd.verified_by_rc_id')
      // ::text keeps the pg driver from parsing the JSON back into objects.
      .select([
        'd.id',
        (db.engine === 'postgres' ? sql<string>`row_to_json(${json})::text` : sql<string>`${json}`).as('json'),
      ])
  );
}

/** Every record as JSON text, in id order, one page at a time (keyset paging: each page is an index seek). */
async function* recordJsonPages(db: Db, pageSize: number): AsyncGenerator<string[]> {
  let afterId = 0;
  for (;;) {
    const page = await asJson(
      db,
      db.kysely.selectFrom('device_records').selectAll().where('id', '>', afterId).orderBy('id').limit(pageSize),
    )
      .orderBy('d.id')
      .execute();
    if (page.length === 0) return;
    yield page.map((row) => row.json);
    if (page.length < pageSize) return;
    afterId = page[page.length - 1]!.id;
  }
}

const STATUS_PAGE_SIZE = 5000;

/** api/get_status/'s answer: every record in one JSON array, page by page so memory stays flat however many. */
export async function* recordJsonArray(db: Db): AsyncGenerator<string> {
  let first = true;
  for await (const page of recordJsonPages(db, STATUS_PAGE_SIZE)) {
    yield (first ? '[' : ',') + page.join(',');
    first = false;
  }
  yield first ? '[]' : ']';
}

/**
 * The records with these ids as JSON text, in the order of `ids` (the pick list's pages; the event
 * of a change, read through `kysely`, the change's transaction).
 */
export async function recordJsonOf(
  db: Db,
  ids: readonly number[],
  kysely: Kysely<Database> = db.kysely,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await asJson(
    db,
    kysely.selectFrom('device_records').selectAll().where('id', 'in', ids),
    kysely,
  ).execute();
  const byId = new Map(rows.map((row) => [row.id, row.json]));
  return ids.map((id) => byId.get(id)!);
}
