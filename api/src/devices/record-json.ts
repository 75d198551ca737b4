// Device records as the API answers them (docs/screens.md#device-pick-list): DeviceRecord of @veritas/shared, the type
// the console reads them with. The database itself renders each record as JSON text (SQLite
// json_object, PostgreSQL row_to_json): for 100k records that is several times faster than
// building and stringifying JS objects. The shape is written once below, keyed by the shared
// types, so a field missing on either side fails the type check; only the JSON functions differ
// (record-json.postgres.ts, record-json.sqlite.ts).
import type { DeviceRecord, TrackingInfo, UserRef } from '@veritas/shared/domain';
import { sql, type Kysely, type RawBuilder, type Selectable, type SelectQueryBuilder } from 'kysely';
import { forEngine } from '../db/engines';
import type { Database, Db, DeviceRecordsTable } from '../db/schema';
import { postgresJson } from './record-json.postgres';
import { sqliteJson } from './record-json.sqlite';

type Json = RawBuilder<unknown>;

/** The JSON functions of an engine (record-json.postgres.ts, record-json.sqlite.ts). Raw: Kysely has no builder for them. */
export interface JsonFunctions {
  /** An object of `entries`, keys in the order given. */
  object(entries: [string, Json][]): Json;
  /** A 0/1 column as a JSON boolean. */
  flag(column: string): Json;
  /** An object as JSON text. */
  text(json: Json): RawBuilder<string>;
}

const object = <T>(json: JsonFunctions, fields: { [K in keyof T]-?: Json }): Json =>
  json.object(Object.entries<Json>(fields));

/** {username} of a joined user, or null. Raw, as the JSON functions these parts are the arguments of. */
function userRef(json: JsonFunctions, alias: string): Json {
  const username = sql.ref(`${alias}.username`);
  return sql`case when ${username} is null then null else ${object<UserRef>(json, { username: sql`${username}` })} end`;
}

function recordJson(json: JsonFunctions): Json {
  const col = (name: string): Json => sql`${sql.ref(`d.${name}`)}`;
  return object<DeviceRecord>(json, {
    id: col('id'),
    tracking_id: object<TrackingInfo>(json, {
      tracking_id: col('tracking_id'),
      hub_code: col('hub_code'),
      created_date: col('created_date'),
      device_type: col('device_type'),
      is_Blindpick: json.flag('d.is_blindpick'),
      Blind_brand: col('blind_brand'),
      Blind_model: col('blind_model'),
      device_model_name: col('device_model_name'),
      device_brand: col('device_brand'),
    }),
    is_submit: json.flag('d.is_submit'),
    submit_time: col('submit_time'),
    submitted_by: userRef(json, 'sb'),
    submitted_device_name: col('submitted_device_name'),
    submitted_manufacturer: col('submitted_manufacturer'),
    is_verified: json.flag('d.is_verified'),
    verify_time: col('verify_time'),
    verified_by: userRef(json, 'vb'),
    is_verified_rc: json.flag('d.is_verified_rc'),
    verified_by_rc: userRef(json, 'rb'),
    verify_time_rc: col('verify_time_rc'),
    is_verified_rc_by: json.flag('d.is_verified_rc_by'),
    device_result: col('device_result'),
  });
}

/**
 * recordJson's SQL text for each engine, compiled once. It has no parameters, and building and
 * compiling its sixty-odd nodes on every read took about a tenth of the server's CPU under the
 * field scans (each change reads its records back for its event).
 */
const recordJsonText = new Map<JsonFunctions, RawBuilder<string>>();

function recordJsonTextOf(db: Db): RawBuilder<string> {
  const json = forEngine(db, { postgres: postgresJson, sqlite: sqliteJson });
  let text = recordJsonText.get(json);
  if (!text) {
    const compiled = json.text(recordJson(json)).compile(db.kysely);
    if (compiled.parameters.length > 0) throw new Error('the record JSON is compiled once: it takes no parameters');
    text = sql.raw<string>(compiled.sql);
    recordJsonText.set(json, text);
  }
  return text;
}

/** Rows of device_records, every column: what a page of records is cut from. */
type RecordRows = SelectQueryBuilder<Database, 'device_records', Selectable<DeviceRecordsTable>>;

/** Each record of `rows` as JSON text with its id; the rows are cut first, so the JSON is built for them only. */
function asJson(db: Db, rows: RecordRows, kysely: Kysely<Database> = db.kysely) {
  return kysely
    .selectFrom(rows.as('d'))
    .leftJoin('users as sb', 'sb.id', 'd.submitted_by_id')
    .leftJoin('users as vb', 'vb.id', 'd.verified_by_id')
    .leftJoin('users as rb', 'rb.id', 'd.verified_by_rc_id')
    .select(['d.id', recordJsonTextOf(db).as('json')]);
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
