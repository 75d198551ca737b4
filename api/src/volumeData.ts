// Benchmark volume: the demo's hubs and users with hundreds of thousands of device records in
// every state, inserted in bulk. The demo data itself goes through the field-scan engine
// (demo.ts); at this volume that would take minutes, and benchmarks measure reading, not scanning.
// The records come from the generator the console's tests build theirs with
// (@veritas/shared/testing/records); this stores them, usernames turned into user ids.
import type { DeviceRecord, UserRef } from '@veritas/shared/domain';
import { seededRandom, volumeRecord, type VolumeHub, type VolumeOptions } from '@veritas/shared/testing/records';
import { sql, type Insertable } from 'kysely';
import { dashboardTimes, rebuildDashboardSummaries } from './dashboard/summaries';
import type { Db, DeviceRecordsTable } from './db/schema';
import { seedDemoOrganization } from './demo';
import { CATALOGUE } from './field/catalogue';

/** The demo's hubs, each with its operator, its verifier and the return centre that detaches its devices. */
const HUBS: readonly VolumeHub[] = [
  { code: 'BLR01', operator: 'wm_blr', verifier: 'exec_blr', rc: 'rc_south' },
  { code: 'DEL02', operator: 'wm_del', verifier: 'exec_del', rc: 'rc_north' },
  { code: 'MUM03', operator: 'wm_mum', verifier: 'exec_mum', rc: 'rc_north' },
  { code: 'HYD04', operator: 'wm_hyd', verifier: 'former_exec_hyd', rc: 'rc_south' },
];

const BATCH_SIZE = 1000;

type NewRecord = Insertable<DeviceRecordsTable>;

/** The row of a record; a user that does not exist (any more) leaves its step without a name. */
function rowOf(record: DeviceRecord, userIds: ReadonlyMap<string, number>): NewRecord {
  const expected = record.tracking_id;
  const flag = (value: boolean) => (value ? 1 : 0);
  const idOf = (user: UserRef | null) => (user === null ? null : (userIds.get(user.username) ?? null));
  return {
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
    ...dashboardTimes(expected.created_date, record.submit_time, record.verify_time),
  };
}

/** Fills an empty database with the demo organization and `records` bulk device records. */
export async function loadVolumeData(db: Db, { records, seed = 20250101 }: { records: number; seed?: number }): Promise<void> {
  await seedDemoOrganization(db);
  const users = await db.kysely.selectFrom('users').select(['id', 'username']).execute();
  const userIds = new Map(users.map((u) => [u.username, u.id]));
  const volume: VolumeOptions = { rand: seededRandom(seed), now: Date.now(), hubs: HUBS, devices: CATALOGUE };
  await db.kysely.transaction().execute(async (trx) => {
    for (let start = 0; start < records; start += BATCH_SIZE) {
      const batch: NewRecord[] = [];
      for (let i = start; i < Math.min(records, start + BATCH_SIZE); i++) batch.push(rowOf(volumeRecord(i, volume), userIds));
      await trx.insertInto('device_records').values(batch).execute();
    }
  });
  // Fresh statistics after a bulk load, so the planner pages by index from the start.
  await sql`analyze device_records`.execute(db.kysely);
  // Rows stored in bulk leave the dashboard's summaries behind: built once, at the end.
  await rebuildDashboardSummaries(db);
}
