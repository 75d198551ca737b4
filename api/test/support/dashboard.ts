// What the dashboard tests share: records stored as they are (any state, any time text), the
// console's figures over what api/get_status/ answers, computed in a given local time zone, and
// the summary tables as rows to compare.
import { dashboardStats, type DashboardStats, type DeviceRecord, type Selection } from '@veritas/shared/domain';
import { inLocalZone } from '@veritas/shared/testing/timeZone';
import { sql } from 'kysely';
import { dashboardTimes } from '../../src/dashboard/summaries';
import type { Db } from '../../src/db/schema';
import type { Client } from './build';

/** Stores `records` as rows, usernames turned into user ids (an unknown one into none). No summary is kept in step. */
export async function insertRecords(db: Db, records: readonly DeviceRecord[]): Promise<void> {
  if (records.length === 0) return;
  const users = await db.kysely.selectFrom('users').select(['id', 'username']).execute();
  const ids = new Map(users.map((u) => [u.username, u.id]));
  const idOf = (user: { username: string } | null) => (user ? (ids.get(user.username) ?? null) : null);
  const flag = (value: boolean) => (value ? 1 : 0);
  await db.kysely
    .insertInto('device_records')
    .values(
      records.map((r) => ({
        tracking_id: r.tracking_id.tracking_id,
        hub_code: r.tracking_id.hub_code,
        created_date: r.tracking_id.created_date,
        device_type: r.tracking_id.device_type,
        is_blindpick: flag(r.tracking_id.is_Blindpick),
        blind_brand: r.tracking_id.Blind_brand,
        blind_model: r.tracking_id.Blind_model,
        device_model_name: r.tracking_id.device_model_name,
        device_brand: r.tracking_id.device_brand,
        is_submit: flag(r.is_submit),
        submit_time: r.submit_time,
        submitted_by_id: idOf(r.submitted_by),
        submitted_device_name: r.submitted_device_name,
        submitted_manufacturer: r.submitted_manufacturer,
        device_result: r.device_result,
        is_verified: flag(r.is_verified),
        verify_time: r.verify_time,
        verified_by_id: idOf(r.verified_by),
        is_verified_rc: flag(r.is_verified_rc),
        verified_by_rc_id: idOf(r.verified_by_rc),
        verify_time_rc: r.verify_time_rc,
        is_verified_rc_by: flag(r.is_verified_rc_by),
        ...dashboardTimes(r.tracking_id.created_date, r.submit_time, r.verify_time),
      })),
    )
    .execute();
}

/** Every record, summary and capture gone (users and groups stay). */
export async function emptyRecords(db: Db): Promise<void> {
  for (const table of [
    'device_records',
    'mac_captures',
    'dashboard_counts',
    'dashboard_operators',
    'dashboard_series',
    'dashboard_hubs',
  ] as const) {
    await db.kysely.deleteFrom(table).execute();
  }
}

/** The query of api/dashboard/. */
export const dashboardPath = (selection: Selection, timeZone: string) =>
  `api/dashboard/?${new URLSearchParams({ hub: selection.hub, timeframe: selection.timeframe, tz: timeZone })}`;

/** What the console computes from api/get_status/ in a browser whose local zone is `timeZone`. */
export async function consoleFigures(client: Client, selection: Selection, timeZone: string, now: Date): Promise<DashboardStats> {
  const answer = await client.get('api/get_status/');
  if (answer.status !== 200) throw new Error(`get_status: ${answer.status}`);
  const records = answer.body as DeviceRecord[];
  return inLocalZone(timeZone, () => dashboardStats(records, selection, now));
}

/** The server's figures and the console's, for comparing. */
export async function bothFigures(client: Client, selection: Selection, timeZone: string, now: Date) {
  const answer = await client.get(dashboardPath(selection, timeZone));
  if (answer.status !== 200) throw new Error(`dashboard: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { server: answer.body as DashboardStats, console: await consoleFigures(client, selection, timeZone, now) };
}

/** The summary tables, rows that count nothing left out, in a stable order. */
export async function summaryRows(db: Db): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const table of ['dashboard_counts', 'dashboard_operators', 'dashboard_series', 'dashboard_hubs']) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db.kysely);
    tables[table] = rows
      .map((row) =>
        Object.fromEntries(
          Object.entries(row).map(([key, value]) => [
            key,
            typeof value === 'string' && /^-?\d+$/.test(value) && key !== 'hub_code' && key !== 'hub_key' ? Number(value) : value,
          ]),
        ),
      )
      .filter(
        (row) =>
          table === 'dashboard_hubs' ||
          Object.entries(row).some(
            ([key, value]) => !['span', 'bucket', 'hub_code', 'operator_id', 'all_hubs', 'event', 'quarter'].includes(key) && value !== 0,
          ),
      )
      .map((row) => JSON.stringify(row))
      .sort();
  }
  return tables;
}
