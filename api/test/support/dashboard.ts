// What the dashboard tests share: records stored as they are (any state, any time text), the
// console's figures over what api/get_status/ answers, computed in a given local time zone, and
// the summary tables as rows to compare.
import { dashboardStats, type DashboardStats, type DeviceRecord, type Selection } from '@veritas/shared/domain';
import { inLocalZone } from '@veritas/shared/testing/time-zone';
import { sql } from 'kysely';
import type { Db } from '../../src/db/schema';
import { storedRow } from '../../seed/volume-data';
import type { Client } from './build';

/** Stores `records` as rows (the bulk loader's storedRow: usernames turned into user ids, an unknown one into none). No summary is kept in step. */
export async function insertRecords(db: Db, records: readonly DeviceRecord[]): Promise<void> {
  if (records.length === 0) return;
  const users = await db.kysely.selectFrom('users').select(['id', 'username']).execute();
  const ids = new Map(users.map((u) => [u.username, u.id]));
  await db.kysely
    .insertInto('device_records')
    .values(records.map((record) => storedRow(record, ids)))
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
export async function consoleFigures(
  client: Client,
  selection: Selection,
  timeZone: string,
  now: Date,
): Promise<DashboardStats> {
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
            typeof value === 'string' && /^-?\d+$/.test(value) && key !== 'hub_code' && key !== 'hub_key'
              ? Number(value)
              : value,
          ]),
        ),
      )
      .filter(
        (row) =>
          table === 'dashboard_hubs' ||
          Object.entries(row).some(
            ([key, value]) =>
              !['span', 'bucket', 'hub_code', 'operator_id', 'all_hubs', 'event', 'quarter'].includes(key) &&
              value !== 0,
          ),
      )
      .map((row) => JSON.stringify(row))
      .sort();
  }
  return tables;
}
