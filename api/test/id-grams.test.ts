// The table of the tracking IDs' one- and two-character pieces (src/devices/id-grams.ts, migration
// 012): every write that stores records keeps it whole, and a search that short which no tracking
// ID holds is answered from it (docs/screens.md#server-side-pick-list).
import { Migrator } from 'kysely';
import { makeRecord } from '@veritas/shared/testing/records';
import { migrationsFor } from '../src/db/migrations';
import type { Db } from '../src/db/schema';
import { deviceCount, devicePage } from '../src/devices/pick-list';
import type { DeviceFilter } from '../src/devices/pick-list-query';
import { migrateToLatest, openDatabase } from '../src/server';
import { bulkLoad, storedRow } from '../seed/volume-data';
import { freshDatabase } from './support/build';
import { storeShipment } from './support/shipment';

/** Every piece of one and two characters of `ids`, lower-cased: computed apart from the server's code. */
const piecesOf = (ids: readonly string[]) =>
  [
    ...new Set(
      ids.flatMap((id) => {
        const lower = id.toLowerCase();
        return [...lower].flatMap((char, i) => (i + 1 < lower.length ? [char, lower.slice(i, i + 2)] : [char]));
      }),
    ),
  ].sort();

async function tableOf(db: Db): Promise<string[]> {
  const rows = await db.kysely.selectFrom('tracking_id_grams').select('gram').execute();
  return rows.map((row) => row.gram).sort();
}

const upload = (db: Db, ids: readonly string[]) => storeShipment(db, 'pieces-upload', ids);

async function withDatabase(work: (db: Db) => Promise<void>): Promise<void> {
  const fresh = await freshDatabase();
  const db = openDatabase(fresh.options);
  try {
    await work(db);
  } finally {
    await db.kysely.destroy();
    await fresh.drop();
  }
}

const NO_FILTER: DeviceFilter = { needle: '', hubKey: null, status: null, result: null };

test('the table holds every piece of every stored tracking ID, lower-cased: those stored before migration 012, by the upload and by the bulk loader', async () => {
  await withDatabase(async (db) => {
    const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: async () => migrationsFor(db.engine) } });
    expect((await migrator.migrateTo('011_created_order')).error).toBeUndefined();
    const older = ['OLD-Ab1', 'x_Y'];
    await db.kysely
      .insertInto('device_records')
      .values(
        older.map((tracking_id, i) => storedRow(makeRecord({ id: i + 1, tracking_id: { tracking_id } }), new Map())),
      )
      .execute();
    await migrateToLatest(db);
    expect(await tableOf(db)).toEqual(piecesOf(older));

    const uploaded = ['New_Q7', 'zz-9', 'OLD-Ab1'];
    await upload(db, uploaded);
    expect(await tableOf(db)).toEqual(piecesOf([...older, ...uploaded]));
  });
  await withDatabase(async (db) => {
    await migrateToLatest(db);
    const records = ['BULK-Kq1', 'bulk-w2'].map((tracking_id, id) =>
      makeRecord({ id: id + 1, tracking_id: { tracking_id } }),
    );
    await bulkLoad(
      db,
      records.map((record) => storedRow(record, new Map())),
    );
    expect(await tableOf(db)).toEqual(piecesOf(['BULK-Kq1', 'bulk-w2']));
  });
});

test('a search of one or two characters that no tracking ID holds finds no record and counts 0, from the table; one that a single ID holds is found', async () => {
  await withDatabase(async (db) => {
    await migrateToLatest(db);
    await upload(db, ['FMPP3100000001', 'FMPP3100000002', 'FMPP31000Q0003']);
    const search = (needle: string) => ({ ...NO_FILTER, needle });
    const found = async (needle: string) => (await devicePage(db, search(needle), null, 10)).records.length;

    for (const needle of ['z', 'zz', 'x', '4', '_', 'mf']) {
      expect(await found(needle)).toBe(0);
      expect(await deviceCount(db, search(needle))).toBe(0);
    }
    for (const [needle, count] of [
      ['q', 1],
      ['0q', 1],
      ['fm', 3],
      ['1', 3],
    ] as const) {
      expect(await found(needle)).toBe(count);
      expect(await deviceCount(db, search(needle))).toBe(count);
    }
    // Answered from the table: a piece taken out of it is no longer searched for.
    await db.kysely.deleteFrom('tracking_id_grams').where('gram', '=', 'q').execute();
    expect(await found('q')).toBe(0);
    expect(await deviceCount(db, search('q'))).toBe(0);
  });
});
