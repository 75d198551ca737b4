// White-labelled brands with their manufacturers, and the manufacturers themselves: the IEEE OUI
// registry, loaded here once rather than read on every request. Its prefixes are kept too, for
// mapping a scanned MAC address to its manufacturer (longest prefix wins). The registry is that of
// the installed oui-data package (2.1.9); loading a newer one into existing databases is the work
// of a later migration.
import { manufacturerKey } from '@veritas/shared/domain';
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema';
import { readOuiRegistry } from '../oui-registry';
import { addIdColumn } from './columns';

// Rows per multi-row insert: 2 parameters a row stays far below SQLite's limit (32,766) and
// PostgreSQL's (65,535) while keeping the statements few.
const BATCH_ROWS = 2000;

async function insertInBatches(db: Kysely<any>, table: string, rows: Record<string, unknown>[]): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH_ROWS) {
    await db
      .insertInto(table)
      .values(rows.slice(start, start + BATCH_ROWS))
      .execute();
  }
}

/**
 * PostgreSQL: a trigram index lets a search for 3 or more characters found inside names skip
 * the scan of every name. It needs the pg_trgm extension (PostgreSQL's contrib, trusted since
 * version 13); where it cannot be installed the search still works, by scanning.
 */
async function addTrigramIndex(db: Kysely<any>): Promise<void> {
  await sql`savepoint trigram_index`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index manufacturers_key_trigrams on manufacturers using gin (manufacturer_key gin_trgm_ops)`.execute(
      db,
    );
    await sql`release savepoint trigram_index`.execute(db);
  } catch {
    await sql`rollback to savepoint trigram_index`.execute(db);
  }
}

async function createTablesAndLoadRegistry(db: Kysely<any>, engine: Engine): Promise<void> {
  // Byte order in PostgreSQL as in SQLite, whatever the database's locale: both engines sort
  // names alike, and the names starting with a search are one range of the index.
  const keyType = engine === 'postgres' ? sql`text collate "C"` : sql`text`;

  await addIdColumn(db.schema.createTable('manufacturers'), engine)
    .addColumn('manufacturer', 'text', (c) => c.notNull().unique())
    .addColumn('manufacturer_key', keyType, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('manufacturers_by_manufacturer_key')
    .on('manufacturers')
    .column('manufacturer_key')
    .unique()
    .execute();

  await db.schema
    .createTable('oui_prefixes')
    .addColumn('prefix', 'text', (c) => c.primaryKey())
    .addColumn('manufacturer_id', 'integer', (c) => c.notNull().references('manufacturers.id'))
    .execute();

  await addIdColumn(db.schema.createTable('brands'), engine)
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('brand_key', 'text', (c) => c.notNull().unique())
    .execute();

  await db.schema
    .createTable('brand_manufacturers')
    .addColumn('brand_id', 'integer', (c) => c.notNull().references('brands.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('manufacturer', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('brand_manufacturers_pk', ['brand_id', 'position'])
    .execute();

  const registry = readOuiRegistry();
  await insertInBatches(
    db,
    'manufacturers',
    registry.manufacturers.map((manufacturer) => ({ manufacturer, manufacturer_key: manufacturerKey(manufacturer) })),
  );
  const ids = new Map<string, number>();
  for (const row of await db.selectFrom('manufacturers').select(['id', 'manufacturer']).execute())
    ids.set(row.manufacturer, row.id);
  await insertInBatches(
    db,
    'oui_prefixes',
    registry.prefixes.map(([prefix, manufacturer]) => ({ prefix, manufacturer_id: ids.get(manufacturer) })),
  );
  if (engine === 'postgres') await addTrigramIndex(db);
  // Statistics now, so the first searches are already planned on the indexes.
  await sql`analyze manufacturers`.execute(db);
  await sql`analyze oui_prefixes`.execute(db);
}

export function whitelabel(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      // PostgreSQL migrations already run in a transaction; SQLite's do not (Kysely's choice),
      // and a half-loaded registry must not survive a crash, so it gets one here.
      if (engine === 'sqlite') await db.transaction().execute((trx) => createTablesAndLoadRegistry(trx, engine));
      else await createTablesAndLoadRegistry(db, engine);
    },
  };
}
