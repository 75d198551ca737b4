// Demo data: hubs, return centres, one user of every role and device records covering every
// state the console shows. Generated from a seeded PRNG, so the same seed gives the same data
// (times are relative to the moment of loading, so the dashboard's timeframes have data).
import { sql } from 'kysely';
import { hashPassword } from './auth/passwords';
import type { Db, DeviceRecordsTable } from './db/schema';
import { nowIso } from './db/schema';
import type { Role } from './roles';

export const DEMO_PASSWORD = 'Veritas@123';

const HUBS = ['BLR01', 'DEL02', 'MUM03', 'HYD04'] as const;
const RCS = ['RC-NORTH', 'RC-SOUTH'] as const;

interface DemoUser {
  username: string;
  role: Role;
  group: string | null;
  active?: false;
}

export const DEMO_USERS: readonly DemoUser[] = [
  { username: 'superadmin_demo', role: 'super_admin', group: null },
  { username: 'admin_demo', role: 'admin', group: null },
  { username: 'central_demo', role: 'central_ops', group: null },
  { username: 'incharge_blr', role: 'incharge', group: 'BLR01' },
  { username: 'exec_blr', role: 'executive', group: 'BLR01' },
  { username: 'exec_del', role: 'executive', group: 'DEL02' },
  { username: 'exec_mum', role: 'executive', group: 'MUM03' },
  { username: 'wm_blr', role: 'operators', group: 'BLR01' },
  { username: 'wm_del', role: 'operators', group: 'DEL02' },
  { username: 'wm_mum', role: 'operators', group: 'MUM03' },
  { username: 'wm_hyd', role: 'operators', group: 'HYD04' },
  { username: 'rc_north', role: 'executive', group: 'RC-NORTH' },
  { username: 'rc_south', role: 'executive', group: 'RC-SOUTH' },
  // Left the company: still the verifier of older HYD04 records.
  { username: 'former_exec_hyd', role: 'executive', group: 'HYD04', active: false },
];

/** Who does what at each hub: the operator at the doorstep, the hub verifier, the RC verifier. */
const STAFF: Record<(typeof HUBS)[number], { operator: string; verifiers: string[]; rc: string }> = {
  BLR01: { operator: 'wm_blr', verifiers: ['exec_blr', 'incharge_blr'], rc: 'rc_south' },
  DEL02: { operator: 'wm_del', verifiers: ['exec_del'], rc: 'rc_north' },
  MUM03: { operator: 'wm_mum', verifiers: ['exec_mum'], rc: 'rc_north' },
  HYD04: { operator: 'wm_hyd', verifiers: ['former_exec_hyd'], rc: 'rc_south' },
};

type DeviceType = 'smarttv' | 'laptop' | 'tablet' | 'mobile' | 'truewireless' | '';
const CATALOGUE: Record<DeviceType, [brand: string, model: string, manufacturer: string][]> = {
  smarttv: [
    ['Samsung', 'Crystal 4K UHD UA43CU8000', 'Samsung Electronics'],
    ['LG', 'OLED55C3PSA', 'LG Electronics'],
    ['Sony', 'Bravia KD-55X80L', 'Sony Corporation'],
    ['Xiaomi', 'Mi TV 5X 50', 'Xiaomi Communications'],
  ],
  laptop: [
    ['Dell', 'Inspiron 15 3520', 'Dell Inc.'],
    ['HP', 'Pavilion 14-dv2014TU', 'HP Inc.'],
    ['Lenovo', 'IdeaPad Slim 3 15IAH8', 'Lenovo'],
    ['Apple', 'MacBook Air M2', 'Apple Inc.'],
    ['Asus', 'Vivobook 15 X1502ZA', 'ASUSTeK Computer'],
  ],
  tablet: [
    ['Apple', 'iPad (10th generation)', 'Apple Inc.'],
    ['Samsung', 'Galaxy Tab S9 FE', 'Samsung Electronics'],
    ['Lenovo', 'Tab M10 (3rd Gen)', 'Lenovo'],
    ['Xiaomi', 'Pad 6', 'Xiaomi Communications'],
  ],
  mobile: [
    ['Samsung', 'Galaxy S23', 'Samsung Electronics'],
    ['Apple', 'iPhone 14', 'Apple Inc.'],
    ['OnePlus', '11R 5G', 'OnePlus Technology'],
    ['Xiaomi', 'Redmi Note 13 Pro', 'Xiaomi Communications'],
    ['Vivo', 'V29 5G', 'Vivo Mobile Communication'],
  ],
  truewireless: [
    ['boAt', 'Airdopes 141', 'Imagine Marketing'],
    ['Apple', 'AirPods Pro (2nd generation)', 'Apple Inc.'],
    ['Sony', 'WF-1000XM4', 'Sony Corporation'],
    ['OnePlus', 'Buds 3', 'OnePlus Technology'],
    ['JBL', 'Tune 230NC TWS', 'Harman International'],
  ],
  '': [
    ['Noise', 'ColorFit Pro 4', 'Nexxbase Marketing'],
    ['Xiaomi', 'Power Bank 3i 20000mAh', 'Xiaomi Communications'],
  ],
};
const DEVICE_TYPES = Object.keys(CATALOGUE) as DeviceType[];
const ERROR_CODES = ['E001', 'E002', 'E003', 'E004', 'E005', 'E006', 'E007', 'E008', 'E009', 'E010'];

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
const SPAN_DAYS = 45;
const BATCH_SIZE = 1000;

/** mulberry32: small, fast and good enough for test data. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, pick };
}

type NewRecord = Omit<DeviceRecordsTable, 'id'>;

/**
 * The i-th synthetic record. Rare cases (missing or invalid values) are placed by index, not
 * by chance, so every data set of a few hundred records contains each of them.
 */
function makeRecord(i: number, rand: ReturnType<typeof prng>, userIds: Map<string, number>, now: number): NewRecord {
  const hub = rand.pick(HUBS);
  const staff = STAFF[hub];
  const type = rand.pick(DEVICE_TYPES);
  const [brand, model, manufacturer] = rand.pick(CATALOGUE[type]);
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
    // Blind picks name the item only by brand and model; some values are simply missing.
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
  };

  // States: pending, submitted, verified at hub, detached (verified by an RC user). A step
  // that would fall in the future has simply not happened yet.
  const stage = rand.next();
  const submitted = created + (0.5 + rand.next() * 36) * HOUR_MS;
  if (stage < 0.22 || submitted > now) return record;
  const result = rand.next() < 0.55 ? 'passed' : rand.pick(ERROR_CODES);
  const other = rand.pick(CATALOGUE[type].filter(([b]) => b !== brand));
  const scanned = result === 'E006' && other ? other : [brand, result === 'E007' ? `${model} Lite` : model, manufacturer];
  Object.assign(record, {
    is_submit: 1,
    submit_time: at(submitted),
    // A few operators' accounts were removed since.
    submitted_by_id: i % 211 === 5 ? null : idOf(staff.operator),
    submitted_device_name: scanned[1],
    submitted_manufacturer: scanned[2],
    device_result: result,
  });
  const verified = submitted + (1 + rand.next() * 48) * HOUR_MS;
  if (stage < 0.52 || verified > now) return record;
  Object.assign(record, { is_verified: 1, verify_time: at(verified), verified_by_id: idOf(rand.pick(staff.verifiers)) });
  const detached = verified + (6 + rand.next() * 72) * HOUR_MS;
  if (stage < 0.85 || detached > now) return record;
  Object.assign(record, {
    is_verified_rc: 1,
    verified_by_rc_id: idOf(staff.rc),
    verify_time_rc: at(detached),
    is_verified_rc_by: 1,
  });
  return record;
}

/**
 * Inserts `count` synthetic device records (tracking ids from `firstIndex` on), attributed to
 * the demo users that exist. Used by the demo data and by benchmarks.
 */
export async function insertSyntheticRecords(db: Db, count: number, { seed = 20250101, firstIndex = 0 } = {}): Promise<void> {
  const users = await db.kysely.selectFrom('users').select(['id', 'username']).execute();
  const userIds = new Map(users.map((u) => [u.username, u.id]));
  const rand = prng(seed);
  const now = Date.now();
  await db.kysely.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += BATCH_SIZE) {
      const batch: NewRecord[] = [];
      for (let i = start; i < Math.min(count, start + BATCH_SIZE); i++) batch.push(makeRecord(firstIndex + i, rand, userIds, now));
      await trx.insertInto('device_records').values(batch).execute();
    }
  });
  // Fresh statistics after a bulk load, so the planner pages by index from the start.
  await sql`analyze device_records`.execute(db.kysely);
}

/** Fills an empty database (no device records) with the demo data. Returns whether it did. */
export async function loadDemoData(db: Db, { records = 3000 } = {}): Promise<boolean> {
  const existing = await db.kysely.selectFrom('device_records').select('id').limit(1).executeTakeFirst();
  if (existing) return false;

  const groups = [
    ...HUBS.map((code) => ({ name: code, code, organization: 'hub' as const })),
    ...RCS.map((code) => ({ name: code, code, organization: 'RC' as const })),
  ];
  for (const group of groups) {
    const found = await db.kysely.selectFrom('groups').select('id').where('code', '=', group.code).executeTakeFirst();
    if (!found) await db.kysely.insertInto('groups').values(group).execute();
  }
  const groupIds = new Map((await db.kysely.selectFrom('groups').select(['id', 'code']).execute()).map((g) => [g.code, g.id]));

  const present = new Set((await db.kysely.selectFrom('users').select('username').execute()).map((u) => u.username));
  const missing = DEMO_USERS.filter((u) => !present.has(u.username));
  const hashes = await Promise.all(missing.map(() => hashPassword(DEMO_PASSWORD)));
  const created = nowIso();
  if (missing.length > 0) {
    await db.kysely
      .insertInto('users')
      .values(
        missing.map((u, n) => ({
          username: u.username,
          email: `${u.username}@demo.veritas.local`,
          password_hash: hashes[n]!,
          role: u.role,
          is_active: u.active === false ? 0 : 1,
          group_id: u.group === null ? null : (groupIds.get(u.group) ?? null),
          created_at: created,
        })),
      )
      .execute();
  }
  await insertSyntheticRecords(db, records);
  return true;
}

/** The start-up banner listing the demo accounts present in the database. */
export async function demoBanner(db: Db): Promise<string | null> {
  const rows = await db.kysely
    .selectFrom('users')
    .select(['username', 'role', 'is_active'])
    .where('username', 'in', DEMO_USERS.map((u) => u.username))
    .orderBy('id')
    .execute();
  if (rows.length === 0) return null;
  const line = '='.repeat(64);
  return [
    line,
    ` Veritas demo data is loaded. Every demo account's password: ${DEMO_PASSWORD}`,
    ...rows.map((r) => `   ${r.username.padEnd(18)} ${r.role}${r.is_active === 1 ? '' : ' (inactive)'}${r.role === 'operators' ? ' (mobile app only)' : ''}`),
    line,
  ].join('\n');
}
