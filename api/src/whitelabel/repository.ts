// Queries of white-labelled brands (brands, brand_manufacturers) and of the IEEE manufacturer
// registry (manufacturers, loaded by migration 003).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Every brand, by its case-insensitive key. */
export async function findBrands(kysely: Kysely<Database>) {
  return kysely.selectFrom('brands').select(['id', 'brand']).orderBy('brand_key').orderBy('id').execute();
}

export async function findBrandById(kysely: Kysely<Database>, id: number) {
  return kysely.selectFrom('brands').select(['id', 'brand']).where('id', '=', id).executeTakeFirst();
}

export async function findBrandByKey(kysely: Kysely<Database>, brandKey: string) {
  return kysely.selectFrom('brands').select(['id', 'brand']).where('brand_key', '=', brandKey).executeTakeFirst();
}

export async function insertBrand(kysely: Kysely<Database>, brand: string, brandKey: string): Promise<number> {
  const row = await kysely
    .insertInto('brands')
    .values({ brand, brand_key: brandKey })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The manufacturers of these brands, each brand's in its list's order. */
export async function findBrandManufacturers(kysely: Kysely<Database>, brandIds: number[]) {
  return kysely
    .selectFrom('brand_manufacturers')
    .select(['brand_id', 'manufacturer'])
    .where('brand_id', 'in', brandIds)
    .orderBy('brand_id')
    .orderBy('position')
    .execute();
}

/** Replaces the brand's list of manufacturers; run it in a transaction. */
export async function replaceBrandManufacturers(
  kysely: Kysely<Database>,
  brandId: number,
  manufacturers: string[],
): Promise<void> {
  await kysely.deleteFrom('brand_manufacturers').where('brand_id', '=', brandId).execute();
  if (manufacturers.length > 0) {
    await kysely
      .insertInto('brand_manufacturers')
      .values(manufacturers.map((manufacturer, position) => ({ brand_id: brandId, position, manufacturer })))
      .execute();
  }
}

/** The registry's entries of these keys (manufacturerKey). */
export async function findManufacturersByKey(kysely: Kysely<Database>, keys: string[]) {
  return kysely
    .selectFrom('manufacturers')
    .select(['manufacturer', 'manufacturer_key'])
    .where('manufacturer_key', 'in', keys)
    .execute();
}

/** Escapes LIKE's wildcards so a search for "%" or "_" matches those characters. */
const likeLiteral = (value: string) => value.replace(/[\\%_]/g, '\\$&');

/**
 * The first `limit` registry names, alphabetically by key, that contain `needle` (a key); all of
 * them for an empty needle. Names starting with it are a range of the manufacturer_key index: a
 * short search (the common case while typing) is answered from it alone. Only when they are fewer
 * than the limit are names containing it looked for (PostgreSQL: by its trigram index, migration
 * 003; SQLite: walking the key index until enough are found).
 */
export async function searchManufacturers(kysely: Kysely<Database>, needle: string, limit: number) {
  const alphabetical = kysely
    .selectFrom('manufacturers')
    .select(['id', 'manufacturer'])
    .orderBy('manufacturer_key')
    .limit(limit);
  if (!needle) return alphabetical.execute();

  const afterPrefix = `${needle}\u{10FFFF}`;
  const starting = await alphabetical
    .where('manufacturer_key', '>=', needle)
    .where('manufacturer_key', '<', afterPrefix)
    .execute();
  if (starting.length === limit) return starting;
  const containing = await alphabetical
    // Raw: LIKE … ESCAPE, which Kysely's operators do not have.
    .where(sql<boolean>`manufacturer_key like ${`%${likeLiteral(needle)}%`} escape '\\'`)
    .where((eb) => eb.or([eb('manufacturer_key', '<', needle), eb('manufacturer_key', '>=', afterPrefix)]))
    .limit(limit - starting.length)
    .execute();
  return [...starting, ...containing];
}
