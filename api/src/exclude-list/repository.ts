// Queries of the exclude list (brand_exclusions), keyed by the brand's key (brandKey: the White
// Label brands' rule, which the field scans look both up by).
import { brandKey } from '@veritas/shared/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export async function findExcludedBrands(kysely: Kysely<Database>) {
  return kysely.selectFrom('brand_exclusions').select('brand').orderBy('brand_key').execute();
}

/** Answers false when the brand was listed already. */
export async function insertExcludedBrand(kysely: Kysely<Database>, brand: string): Promise<boolean> {
  const added = await kysely
    .insertInto('brand_exclusions')
    .values({ brand_key: brandKey(brand), brand })
    .onConflict((oc) => oc.column('brand_key').doNothing())
    .executeTakeFirst();
  return Number(added.numInsertedOrUpdatedRows) === 1;
}

/** Answers false when the brand was not listed. */
export async function deleteExcludedBrand(kysely: Kysely<Database>, brand: string): Promise<boolean> {
  const removed = await kysely
    .deleteFrom('brand_exclusions')
    .where('brand_key', '=', brandKey(brand))
    .executeTakeFirst();
  return Number(removed.numDeletedRows) === 1;
}
