// The summary tables whose rows the writes add to in place keep 30% of each page free on
// PostgreSQL (fillfactor 70). Each change of a count writes a new version of its row; with room on
// its page that version stays there and no index entry is added (a heap-only update), and the old
// versions are pruned as the page is read. Full pages sent every update to another page with a new
// entry in the primary key: an upload's batch adds to hundreds of hourly rows of the dashboard,
// and its statement took a fifth longer (api/README.md#upload). Pages already written keep their
// form until rewritten; new ones leave the room. SQLite has no such setting: nothing to change.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema';

/** The additive summary tables (src/devices/pick-list-summaries.ts, src/dashboard/dashboard-summaries.ts). */
const UPDATED_IN_PLACE = ['device_counts', 'dashboard_counts', 'dashboard_operators', 'dashboard_series'];

export function summariesFillfactor(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      if (engine !== 'postgres') return;
      for (const table of UPDATED_IN_PLACE)
        await sql`alter table ${sql.table(table)} set (fillfactor = 70)`.execute(db);
    },
  };
}
