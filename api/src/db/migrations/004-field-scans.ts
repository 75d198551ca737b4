// The mobile app's side of the records: what the doorstep scan captured (MAC address, hardware
// ID), the MAC addresses already captured (a unique key makes E004 hold under concurrent
// submissions), and the brands exempt from the manufacturer check (E005/E006).
import type { Kysely, Migration } from 'kysely';

/** Brands whose devices carry radio modules of other makers: their MACs name no brand. */
const EXEMPT_BRANDS = ['boAt', 'Noise', 'Fire-Boltt', 'Mivi'];

export function fieldScans(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('device_records').addColumn('mac_address', 'text').execute();
      await db.schema.alterTable('device_records').addColumn('hardware_id', 'text').execute();

      await db.schema
        .createTable('mac_captures')
        .addColumn('mac_address', 'text', (c) => c.primaryKey())
        .addColumn('tracking_id', 'text', (c) => c.notNull())
        .addColumn('captured_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('mac_captures_by_tracking_id').on('mac_captures').column('tracking_id').execute();

      await db.schema
        .createTable('brand_exclusions')
        .addColumn('brand_key', 'text', (c) => c.primaryKey())
        .addColumn('brand', 'text', (c) => c.notNull())
        .execute();
      await db
        .insertInto('brand_exclusions')
        .values(EXEMPT_BRANDS.map((brand) => ({ brand_key: brand.toLowerCase(), brand })))
        .execute();
    },
  };
}
