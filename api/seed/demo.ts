// Demo data: hubs, return centres, one user of every role, white-labelled brands, and a 45-day
// history of field work: a shipment uploaded through the upload's own ingest, then every item
// worked by the field scans' code with a simulated clock (the same steps as the simulator), so
// every record the console shows has come through the rules. Seeded: the same seed gives the same
// data; times are relative to the moment of loading, so the dashboard's timeframes have data.
// The flagged items' cases are then worked by the console's users (demo-cases.ts).
import crypto from 'node:crypto';
import type { Role } from '@veritas/shared/domain';
import { hashPassword } from '../src/auth/password-hashing';
import { readOuiRegistry } from '../src/db/oui-registry';
import type { Db } from '../src/db/schema';
import { nowIso } from '../src/db/schema';
import { WHITE_LABELS } from './field/catalogue';
import { DeviceMaker } from './field/devices';
import { FieldWork, type Clock, type FieldCalls } from './field/field-work';
import { seededRandom, type RandomSource } from '@veritas/shared/testing/records';
import { makeShipment, shipmentCsv } from './field/shipment';
import {
  ScanRefusal,
  checkDevice,
  fieldUserOf,
  submitDevice,
  verifyAtHub,
  verifyAtRc,
  type FieldUser,
} from '../src/scan/field-scans';
import { completeUpload } from '../src/upload/ingest';
import { workDemoCases } from './demo-cases';
import { claimUpload, storeChunk } from '../src/upload/repository';

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
  { username: 'wm_blr2', role: 'operators', group: 'BLR01' },
  { username: 'wm_del', role: 'operators', group: 'DEL02' },
  { username: 'wm_mum', role: 'operators', group: 'MUM03' },
  { username: 'wm_hyd', role: 'operators', group: 'HYD04' },
  { username: 'rc_north', role: 'executive', group: 'RC-NORTH' },
  { username: 'rc_south', role: 'executive', group: 'RC-SOUTH' },
  // Left the company: still the verifier of older HYD04 records.
  { username: 'former_exec_hyd', role: 'executive', group: 'HYD04', active: false },
];

/** The return centre that detaches each hub's devices. */
const RC_OF_HUB: Record<(typeof HUBS)[number], (typeof RCS)[number]> = {
  BLR01: 'RC-SOUTH',
  DEL02: 'RC-NORTH',
  MUM03: 'RC-NORTH',
  HYD04: 'RC-SOUTH',
};

const HOUR_MS = 60 * 60 * 1000;
const SPAN_DAYS = 45;

/** Hubs, return centres, demo users and white-labelled brands, where missing. */
export async function seedDemoOrganization(db: Db): Promise<void> {
  const groups = [
    ...HUBS.map((code) => ({ name: code, code, organization: 'hub' as const })),
    ...RCS.map((code) => ({ name: code, code, organization: 'RC' as const })),
  ];
  for (const group of groups) {
    const found = await db.kysely.selectFrom('groups').select('id').where('code', '=', group.code).executeTakeFirst();
    if (!found) await db.kysely.insertInto('groups').values(group).execute();
  }
  const groupIds = new Map(
    (await db.kysely.selectFrom('groups').select(['id', 'code']).execute()).map((g) => [g.code, g.id]),
  );

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

  for (const [brand, manufacturers] of Object.entries(WHITE_LABELS)) {
    const brandKey = brand.toLowerCase();
    if (await db.kysely.selectFrom('brands').select('id').where('brand_key', '=', brandKey).executeTakeFirst())
      continue;
    const { id } = await db.kysely
      .insertInto('brands')
      .values({ brand, brand_key: brandKey })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.kysely
      .insertInto('brand_manufacturers')
      .values(manufacturers.map((manufacturer, position) => ({ brand_id: id, position, manufacturer })))
      .execute();
  }
}

/** The engine's calls in-process; a refused scan answers its code, as the app's answer carries it. */
const engineCalls = (db: Db): FieldCalls<FieldUser> => {
  const answer = async (call: Promise<{ result: string }>) => {
    try {
      return (await call).result;
    } catch (error) {
      if (error instanceof ScanRefusal) return error.code;
      throw error;
    }
  };
  return {
    check: (user, scan) => answer(checkDevice(db, user, scan)),
    submit: (user, scan, at) => answer(submitDevice(db, user, scan, at)),
    verifyHub: (user, scan, at) => answer(verifyAtHub(db, user, scan, at)),
    verifyRc: (user, scan, at) => answer(verifyAtRc(db, user, scan, at)),
  };
};

/** Steps hours to days apart; a step that would fall after `now` has not happened yet. */
function simulatedClock(rand: RandomSource, now: number): Clock {
  const delayHours = { submit: [0.5, 36], verify_hub: [1, 48], verify_rc: [6, 72] } as const;
  return (_item, step, previous) => {
    const [least, spread] = delayHours[step];
    const at = previous.getTime() + (least + rand.next() * spread) * HOUR_MS;
    return at > now ? null : new Date(at);
  };
}

/** Stores the shipment as an upload by `userId` would, through the same ingest. */
async function uploadShipment(db: Db, userId: number, csv: string): Promise<void> {
  const chunk = {
    uploadId: crypto.randomUUID(),
    chunkIndex: 0,
    totalChunks: 1,
    fileName: 'demo_shipment.csv',
    data: Buffer.from(csv, 'utf8'),
  };
  await storeChunk(db, userId, chunk);
  await completeUpload(db, (await claimUpload(db, userId, chunk))!);
}

/** Fills an empty database (no device records) with the demo data. Returns whether it did. */
export async function loadDemoData(db: Db, { records = 3000, seed = 20250101 } = {}): Promise<boolean> {
  const existing = await db.kysely.selectFrom('device_records').select('id').limit(1).executeTakeFirst();
  if (existing) return false;
  await seedDemoOrganization(db);

  const users = await db.kysely.selectFrom('users').select(['id', 'username']).execute();
  const fieldUsers = new Map<string, FieldUser>();
  for (const { id, username } of users) {
    const user = await fieldUserOf(db, id);
    if (user) fieldUsers.set(username, user);
  }
  const byGroup = (role: (r: Role) => boolean, code: string) =>
    DEMO_USERS.filter((u) => u.group === code && role(u.role)).map((u) => fieldUsers.get(u.username)!);
  const staff = {
    operators: new Map(HUBS.map((hub) => [hub, byGroup((r) => r === 'operators', hub)])),
    hubVerifiers: new Map(HUBS.map((hub) => [hub, byGroup((r) => r === 'executive' || r === 'incharge', hub)])),
    rcVerifiers: new Map(HUBS.map((hub) => [hub, byGroup(() => true, RC_OF_HUB[hub])[0]!])),
  };

  const rand = seededRandom(seed);
  const now = Date.now();
  const shipment = makeShipment(rand, { count: records, hubs: HUBS, prefix: 'FMPP31', now, spanDays: SPAN_DAYS });
  await uploadShipment(db, fieldUsers.get('admin_demo')?.id ?? users[0]!.id, shipmentCsv(shipment));

  const work = new FieldWork(
    engineCalls(db),
    staff,
    new DeviceMaker(readOuiRegistry().prefixes, rand),
    rand,
    simulatedClock(rand, now),
    shipment,
  );
  // In the order the items came in, so a MAC captured earlier is what a later duplicate meets.
  const inOrder = [...shipment].sort((a, b) => a.created.getTime() - b.created.getTime());
  for (const item of inOrder)
    await work.work(item, rand.pick(staff.operators.get(item.hub_code as (typeof HUBS)[number])!));
  await workDemoCases(db, rand);
  return true;
}

/** The start-up banner listing the demo accounts present in the database. */
export async function demoBanner(db: Db): Promise<string | null> {
  const rows = await db.kysely
    .selectFrom('users')
    .select(['username', 'role', 'is_active'])
    .where(
      'username',
      'in',
      DEMO_USERS.map((u) => u.username),
    )
    .orderBy('id')
    .execute();
  if (rows.length === 0) return null;
  const line = '='.repeat(64);
  return [
    line,
    ` Veritas demo data is loaded. Every demo account's password: ${DEMO_PASSWORD}`,
    ...rows.map(
      (r) =>
        `   ${r.username.padEnd(18)} ${r.role}${r.is_active === 1 ? '' : ' (inactive)'}${r.role === 'operators' ? ' (mobile app only)' : ''}`,
    ),
    line,
  ].join('\n');
}
