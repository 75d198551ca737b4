// api/whitelable/ and api/get_manufacturer/ (SPEC.md §3, §7): white-labelled brands with the
// manufacturers they sell under their name, and search over the IEEE manufacturer registry
// (loaded by migration 003). Error bodies carry `message`, which the console shows.
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../auth/guard';
import { manufacturerKey } from '../db/oui-registry';
import type { Db } from '../db/schema';
import { HttpError, bodyOf, text } from '../http';
import { canEditWhiteLabels } from '../roles';

const MAX_BRAND_LENGTH = 128;
const MAX_MANUFACTURERS_PER_BRAND = 500;
const MAX_SEARCH_LENGTH = 100;
const SEARCH_LIMIT = 50;

interface BrandAnswer {
  id: number;
  brand: string;
  white_labeled_brands: { data: string[] };
}

const failure = (statusCode: number, message: string, extra: Record<string, unknown> = {}) =>
  new HttpError(statusCode, { message, detail: message, ...extra });

const brandKey = (brand: string) => brand.toLowerCase();

/** Escapes LIKE's wildcards so a search for "%" or "_" matches those characters. */
const likeLiteral = (value: string) => value.replace(/[\\%_]/g, '\\$&');

/** The `id` of a POST: a positive integer (also as text). */
function brandId(value: unknown): number {
  const id = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
    throw failure(400, 'id must be the id of a brand (a positive integer).', { field: 'id' });
  }
  return id;
}

/** The `data` of a POST: registry names, trimmed and deduplicated case-insensitively, in order. */
function manufacturerNames(data: unknown): string[] {
  if (data === undefined || data === null) return [];
  if (!Array.isArray(data)) throw failure(400, 'data must be a list of manufacturer names.', { field: 'data' });
  const byKey = new Map<string, string>();
  for (const item of data) {
    const name = text(item);
    if (!name) throw failure(400, 'Manufacturer names must be non-empty text.', { field: 'data' });
    const key = manufacturerKey(name);
    if (!byKey.has(key)) byKey.set(key, name);
  }
  if (byKey.size > MAX_MANUFACTURERS_PER_BRAND) {
    throw failure(400, `A brand can list at most ${MAX_MANUFACTURERS_PER_BRAND} manufacturers.`, { field: 'data' });
  }
  return [...byKey.values()];
}

export async function whitelabelRoutes(app: FastifyInstance, { db }: { db: Db }) {
  async function brandsWithManufacturers(brands: { id: number; brand: string }[]): Promise<BrandAnswer[]> {
    if (brands.length === 0) return [];
    const rows = await db.kysely
      .selectFrom('brand_manufacturers')
      .select(['brand_id', 'manufacturer'])
      .where('brand_id', 'in', brands.map((b) => b.id))
      .orderBy('brand_id')
      .orderBy('position')
      .execute();
    const listOf = new Map(brands.map((b) => [b.id, [] as string[]]));
    for (const row of rows) listOf.get(row.brand_id)!.push(row.manufacturer);
    return brands.map((b) => ({ id: b.id, brand: b.brand, white_labeled_brands: { data: listOf.get(b.id)! } }));
  }

  /** The registry's spelling of each name; 400 naming those the registry does not know. */
  async function registryNames(names: string[]): Promise<string[]> {
    if (names.length === 0) return [];
    const keys = names.map(manufacturerKey);
    const rows = await db.kysely
      .selectFrom('manufacturers')
      .select(['manufacturer', 'manufacturer_key'])
      .where('manufacturer_key', 'in', keys)
      .execute();
    const known = new Map(rows.map((row) => [row.manufacturer_key, row.manufacturer]));
    const unknown = names.filter((_, i) => !known.has(keys[i]!));
    if (unknown.length > 0) {
      throw failure(400, `Unknown manufacturer${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, { field: 'data', unknown });
    }
    return keys.map((key) => known.get(key)!);
  }

  async function replaceList(brandId: number, manufacturers: string[]): Promise<void> {
    await db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('brand_manufacturers').where('brand_id', '=', brandId).execute();
      if (manufacturers.length > 0) {
        await trx
          .insertInto('brand_manufacturers')
          .values(manufacturers.map((manufacturer, position) => ({ brand_id: brandId, position, manufacturer })))
          .execute();
      }
    });
  }

  async function createBrand(brand: string): Promise<BrandAnswer> {
    const exists = async () =>
      (await db.kysely.selectFrom('brands').select('id').where('brand_key', '=', brandKey(brand)).executeTakeFirst()) !== undefined;
    const duplicate = () => failure(409, 'This brand already exists', { field: 'brand' });
    if (await exists()) throw duplicate();
    try {
      const created = await db.kysely.insertInto('brands').values({ brand, brand_key: brandKey(brand) }).returning('id').executeTakeFirstOrThrow();
      return { id: created.id, brand, white_labeled_brands: { data: [] } };
    } catch (error) {
      // Another request created it since the check: the unique brand_key refused this one.
      if (await exists()) throw duplicate();
      throw error;
    }
  }

  app.get('/api/whitelable/', async (request) => {
    await requireUser(db, request);
    const brands = await db.kysely.selectFrom('brands').select(['id', 'brand']).orderBy('brand_key').orderBy('id').execute();
    return brandsWithManufacturers(brands);
  });

  app.post('/api/whitelable/', async (request, reply) => {
    const actor = await requireUser(db, request);
    if (!canEditWhiteLabels(actor.role)) throw failure(403, 'You do not have permission to change white labels.');
    const body = bodyOf(request.body);
    const brand = text(body.brand);
    if (!brand) throw failure(400, 'Please enter a brand name', { field: 'brand' });
    if (brand.length > MAX_BRAND_LENGTH) throw failure(400, `Brand name must be at most ${MAX_BRAND_LENGTH} characters.`, { field: 'brand' });
    const names = manufacturerNames(body.data);

    // The console sends the id when it saves a list, so saving an emptied list is not a create.
    const byId = body.id !== undefined && body.id !== null;
    if (!byId && names.length === 0) {
      reply.code(201);
      return createBrand(brand);
    }

    const stored = await db.kysely
      .selectFrom('brands')
      .select(['id', 'brand'])
      .$call((q) => (byId ? q.where('id', '=', brandId(body.id)) : q.where('brand_key', '=', brandKey(brand))))
      .executeTakeFirst();
    if (!stored) throw failure(404, byId ? 'Brand not found.' : `Brand "${brand}" not found.`);
    if (brandKey(stored.brand) !== brandKey(brand)) {
      throw failure(400, `Brand ${stored.id} is "${stored.brand}", not "${brand}".`, { field: 'brand' });
    }
    const manufacturers = await registryNames(names);
    await replaceList(stored.id, manufacturers);
    return { id: stored.id, brand: stored.brand, white_labeled_brands: { data: manufacturers } };
  });

  app.get('/api/get_manufacturer/', async (request) => {
    await requireUser(db, request);
    const search = (request.query as Record<string, unknown>).search;
    const needle = manufacturerKey(typeof search === 'string' ? search : '');
    if (needle.length > MAX_SEARCH_LENGTH) {
      throw failure(400, `search must be at most ${MAX_SEARCH_LENGTH} characters.`, { field: 'search' });
    }
    const alphabetical = db.kysely.selectFrom('manufacturers').select(['id', 'manufacturer']).orderBy('manufacturer_key').limit(SEARCH_LIMIT);
    if (!needle) return alphabetical.execute();

    // Names starting with the search are a range of the manufacturer_key index: a short search
    // (the common case while typing) is answered from it alone. Only when they are fewer than the
    // limit are names containing it looked for (PostgreSQL: by its trigram index, migration 003;
    // SQLite: walking the key index until enough are found).
    const afterPrefix = `${needle}\u{10FFFF}`;
    const starting = await alphabetical.where('manufacturer_key', '>=', needle).where('manufacturer_key', '<', afterPrefix).execute();
    if (starting.length === SEARCH_LIMIT) return starting;
    const containing = await alphabetical
      .where(sql<boolean>`manufacturer_key like ${`%${likeLiteral(needle)}%`} escape '\\'`)
      .where((eb) => eb.or([eb('manufacturer_key', '<', needle), eb('manufacturer_key', '>=', afterPrefix)]))
      .limit(SEARCH_LIMIT - starting.length)
      .execute();
    return [...starting, ...containing];
  });
}
