// Benchmark volume: the demo's hubs and users with hundreds of thousands of device records in
// every state, inserted in bulk. The demo data itself goes through the field-scan engine
// (demo.ts); at this volume that would take minutes, and benchmarks measure reading, not scanning.
import { sql } from 'kysely';
import type { Db, DeviceRecordsTable } from './db/schema';
import { seedDemoOrganization } from './demo';
import { CATALOGUE } from './field/catalogue';
import { seededRandom, type Random } from './field/random';

const ERROR_CODES = ['E004', 'E005', 'E006', 'E007', 'E008', 'E009', 'E010'];
const HUBS = ['BLR01', 'DEL02', 'MUM03', 'HYD04'] as const;
/** Who does what at each hub: the operator at the doorstep, the hub verifier, the RC verifier. */
const STAFF: Record<(typeof HUBS)[number], { operator: string; verifier: string; rc: string }> = {
  BLR01: { operator: 'wm_blr', verifier: 'exec_blr', rc: 'rc_south' },
  DEL02: { operator: 'wm_del', verifier: 'exec_del', rc: 'rc_north' },
  MUM03: { operator: 'wm_mum', verifier: 'exec_mum', rc: 'rc_north' },
  HYD04: { operator: 'wm_hyd', verifier: 'former_exec_hyd', rc: 'rc_south' },
};

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
const SPAN_DAYS = 45;
const BATCH_SIZE = 1000;

type NewRecord = Omit<DeviceRecordsTable, 'id'>;

/**
 * The i-th record. Rare cases (missing or invalid values, as older data holds) are placed by
 * index, not by chance, so every data set of a few hundred records contains each of them.
 */
function makeRecord(i: number, rand: Random, userIds: Map<string, number>, now: number): NewRecord {
  const hub = rand.pick(HUBS);
  const staff = STAFF[hub];
  const { type, brand, model, manufacturer } = rand.pick(CATALOGUE);
  const isBlindpick = i % 7 === 3;
  const created = now - rand.next() * SPAN_DAYS * DAY_MS;
  const idOf = (username: string) => userIds.get(username) ?? null;
  const at = (ms: number) => new Date(ms).toISOString();

  const record: NewRecord = {
    tracking_id: `FMPP${String(3_100_000_000 + i)}`,
    hub_code: i % 307 === 11 ? null : hub,
    created_date: i % 97 === 13 ? null : i % 101 === 7 ? 'not-a-date' : at(created),
    device_type: i % 113 === 17 ? null : type,
    is_blindpick: isBlindpick ? 1 : 0,
    blind_brand: isBlindpick && i % 11 !== 0 ? brand : null,
    blind_model: isBlindpick && i % 13 !== 0 ? model : null,
    device_model_name: isBlindpick || i % 23 === 5 ? null : model,
    device_brand: isBlindpick || i % 29 === 5 ? null : brand,
    is_submit: 0,
    submit_time: null,
    submitted_by_id: null,
    submitted_device_name: null,
    submitted_manufacturer: null,
    device_result: null,
    is_verified: 0,
    verify_time: null,
    verified_by_id: null,
    is_verified_rc: 0,
    verified_by_rc_id: null,
    verify_time_rc: null,
    is_verified_rc_by: 0,
    mac_address: null,
    hardware_id: null,
  };

  // States: pending, submitted, verified at hub, detached. A step in the future has not happened.
  const stage = rand.next();
  const submitted = created + (0.5 + rand.next() * 36) * HOUR_MS;
  if (stage < 0.22 || submitted > now) return record;
  const result = rand.next() < 0.55 ? 'passed' : rand.pick(ERROR_CODES);
  Object.assign(record, {
    is_submit: 1,
    submit_time: at(submitted),
    // A few operators' accounts were removed since.
    submitted_by_id: i % 211 === 5 ? null : idOf(staff.operator),
    submitted_device_name: result === 'E007' ? `${model} Lite` : model,
    submitted_manufacturer: manufacturer,
    device_result: result,
  });
  const verified = submitted + (1 + rand.next() * 48) * HOUR_MS;
  if (stage < 0.52 || verified > now) return record;
  Object.assign(record, { is_verified: 1, verify_time: at(verified), verified_by_id: idOf(staff.verifier) });
  const detached = verified + (6 + rand.next() * 72) * HOUR_MS;
  if (stage < 0.85 || detached > now) return record;
  Object.assign(record, { is_verified_rc: 1, verified_by_rc_id: idOf(staff.rc), verify_time_rc: at(detached), is_verified_rc_by: 1 });
  return record;
}

/** Fills an empty database with the demo organization and `records` bulk device records. */
export async function loadVolumeData(db: Db, { records, seed = 20250101 }: { records: number; seed?: number }): Promise<void> {
  await seedDemoOrganization(db);
  const users = await db.kysely.selectFrom('users').select(['id', 'username']).execute();
  const userIds = new Map(users.map((u) => [u.username, u.id]));
  const rand = seededRandom(seed);
  const now = Date.now();
  await db.kysely.transaction().execute(async (trx) => {
    for (let start = 0; start < records; start += BATCH_SIZE) {
      const batch: NewRecord[] = [];
      for (let i = start; i < Math.min(records, start + BATCH_SIZE); i++) batch.push(makeRecord(i, rand, userIds, now));
      await trx.insertInto('device_records').values(batch).execute();
    }
  });
  // Fresh statistics after a bulk load, so the planner pages by index from the start.
  await sql`analyze device_records`.execute(db.kysely);
}
