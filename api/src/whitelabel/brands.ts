// White-labelled brands (docs/screens.md#white-labeled-brands) with the manufacturers they sell
// under their name, and the search over the IEEE manufacturer registry.
import type { Static } from '@sinclair/typebox';
import {
  BRAND_MESSAGES,
  brandKey,
  manufacturerKey,
  type Brand,
  type ManufacturerResult,
  type SaveBrand,
} from '@veritas/shared/domain';
import { recordAudit, type AuditBy } from '../audit/trail';
import type { Db } from '../db/schema';
import { BadRequest, Conflict, NotFound } from '../http-errors';
import { notText } from '../schemas';
import {
  findBrandById,
  findBrandByKey,
  findBrandManufacturers,
  findBrands,
  findManufacturersByKey,
  insertBrand,
  replaceBrandManufacturers,
  searchManufacturers,
} from './repository';

const MAX_MANUFACTURERS_PER_BRAND = 500;
const MAX_SEARCH_LENGTH = 100;
const SEARCH_LIMIT = 50;

/** The registry names of a save, deduplicated case-insensitively in the registry's way, in order. */
function manufacturerNames(data: readonly string[]): string[] {
  const byKey = new Map<string, string>();
  for (const name of data) {
    const key = manufacturerKey(name);
    if (!byKey.has(key)) byKey.set(key, name);
  }
  if (byKey.size > MAX_MANUFACTURERS_PER_BRAND) {
    throw new BadRequest('data', `A brand can list at most ${MAX_MANUFACTURERS_PER_BRAND} manufacturers.`);
  }
  return [...byKey.values()];
}

/** The registry's spelling of each name; 400 naming those the registry does not know. */
async function registryNames(db: Db, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const keys = names.map(manufacturerKey);
  const rows = await findManufacturersByKey(db.kysely, keys);
  const known = new Map(rows.map((row) => [row.manufacturer_key, row.manufacturer]));
  const unknown = names.filter((_, i) => !known.has(keys[i]!));
  if (unknown.length > 0) {
    throw new BadRequest('data', `Unknown manufacturer${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, {
      unknown,
    });
  }
  return keys.map((key) => known.get(key)!);
}

async function createBrand(db: Db, by: AuditBy, brand: string): Promise<Brand> {
  const exists = async () => (await findBrandByKey(db.kysely, brandKey(brand))) !== undefined;
  const duplicate = () => new Conflict(BRAND_MESSAGES.exists, { field: 'brand' });
  if (await exists()) throw duplicate();
  try {
    const id = await db.transaction(async (trx) => {
      const id = await insertBrand(trx, brand, brandKey(brand));
      await recordAudit(trx, db, by, {
        action: 'brand.created',
        outcome: 'success',
        target: { kind: 'brand', id, label: brand },
        details: { after: { manufacturers: [] } },
      });
      return id;
    });
    return { id, brand, white_labeled_brands: { data: [] } };
  } catch (error) {
    // Another request created it since the check: the unique brand_key refused this one.
    if (await exists()) throw duplicate();
    throw error;
  }
}

/** Every brand with its manufacturers. */
export async function listBrands(db: Db): Promise<Brand[]> {
  const brands = await findBrands(db.kysely);
  if (brands.length === 0) return [];
  const rows = await findBrandManufacturers(
    db.kysely,
    brands.map((b) => b.id),
  );
  const listOf = new Map(brands.map((b) => [b.id, [] as string[]]));
  for (const row of rows) listOf.get(row.brand_id)!.push(row.manufacturer);
  return brands.map((b) => ({ id: b.id, brand: b.brand, white_labeled_brands: { data: listOf.get(b.id)! } }));
}

/**
 * Saves a brand: without an id and manufacturers it is created (`created`), else the list of the
 * brand named by its id or its name is replaced by the registry's spelling of the names.
 */
export async function saveBrand(
  db: Db,
  by: AuditBy,
  { brand, data, id }: Static<typeof SaveBrand>,
): Promise<{ created: boolean; brand: Brand }> {
  const names = manufacturerNames(data ?? []);
  const byId = id !== undefined && id !== null;
  if (!byId && names.length === 0) return { created: true, brand: await createBrand(db, by, brand) };

  const stored = byId ? await findBrandById(db.kysely, Number(id)) : await findBrandByKey(db.kysely, brandKey(brand));
  if (!stored) throw new NotFound(byId ? 'Brand not found.' : `Brand "${brand}" not found.`);
  if (brandKey(stored.brand) !== brandKey(brand)) {
    throw new BadRequest('brand', `Brand ${stored.id} is "${stored.brand}", not "${brand}".`);
  }
  const manufacturers = await registryNames(db, names);
  // The manufacturers decide the E005 and E006 fraud flags: the entry keeps the list before and after.
  await db.transaction(async (trx) => {
    const before = (await findBrandManufacturers(trx, [stored.id])).map((row) => row.manufacturer);
    await replaceBrandManufacturers(trx, stored.id, manufacturers);
    await recordAudit(trx, db, by, {
      action: 'brand.updated',
      outcome: 'success',
      target: { kind: 'brand', id: stored.id, label: stored.brand },
      details: { before: { manufacturers: before }, after: { manufacturers } },
    });
  });
  return {
    created: false,
    brand: { id: stored.id, brand: stored.brand, white_labeled_brands: { data: manufacturers } },
  };
}

/** Registry names matching a search; a repeated ?search= (a list) is refused, as any list where text is due. */
export async function findManufacturers(db: Db, search: string | string[] | undefined): Promise<ManufacturerResult[]> {
  if (Array.isArray(search)) throw new BadRequest('search', notText('search'));
  // The limit applies to the search as matched: trimmed, spaces collapsed (manufacturerKey).
  const needle = manufacturerKey(search ?? '');
  if (needle.length > MAX_SEARCH_LENGTH)
    throw new BadRequest('search', `search must be at most ${MAX_SEARCH_LENGTH} characters.`);
  return searchManufacturers(db.kysely, needle, SEARCH_LIMIT);
}
