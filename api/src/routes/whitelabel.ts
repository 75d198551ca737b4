// api/whitelable/ and api/get_manufacturer/ (docs/screens.md#white-labeled-brands): white-labelled brands with the
// manufacturers they sell under their name, and search over the IEEE manufacturer registry
// (loaded by migration 003). Error bodies carry `message`, which the console shows.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Brand } from '@veritas/shared/domain';
import { sql } from 'kysely';
import { requireRole } from '../plugins/authentication';
import { manufacturerKey } from '../db/oui-registry';
import { BadRequest, Conflict, NotFound } from '../errors';
import { canEditWhiteLabels } from '../roles';
import { Id, Text } from '../schemas';

const MAX_BRAND_LENGTH = 128;
const MAX_MANUFACTURERS_PER_BRAND = 500;
const MAX_SEARCH_LENGTH = 100;
const SEARCH_LIMIT = 50;

/** A brand as the console reads it (Brand of @veritas/shared). */
const BrandAnswer = Type.Object({
  id: Type.Integer(),
  brand: Type.String(),
  white_labeled_brands: Type.Object({ data: Type.Array(Type.String()) }),
});

const SaveBrand = Type.Object({
  brand: Text(
    { missing: 'Please enter a brand name', maxLength: `Brand name must be at most ${MAX_BRAND_LENGTH} characters.` },
    { maxLength: MAX_BRAND_LENGTH },
  ),
  // Registry names. Absent or null: none. More than MAX_MANUFACTURERS_PER_BRAND is refused after
  // duplicates are dropped, so the handler counts them.
  data: Type.Optional(
    Type.Union([Type.Array(Text({ missing: 'Manufacturer names must be non-empty text.' })), Type.Null()], {
      errorMessages: { missing: 'data must be a list of manufacturer names.' },
    }),
  ),
  // The console sends the brand's id when it saves a list, so saving an emptied list is not a create.
  id: Type.Optional(
    Type.Union([Id('id must be the id of a brand (a positive integer).'), Type.Null()], {
      errorMessages: { missing: 'id must be the id of a brand (a positive integer).' },
    }),
  ),
});

// A repeated ?search= arrives as a list: it is ignored, as an empty search.
const SearchQuery = Type.Object({ search: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])) });

const brandKey = (brand: string) => brand.toLowerCase();

/** Escapes LIKE's wildcards so a search for "%" or "_" matches those characters. */
const likeLiteral = (value: string) => value.replace(/[\\%_]/g, '\\$&');

/** The registry names of a POST, deduplicated case-insensitively in the registry's way, in order. */
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

export const whitelabelRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  async function brandsWithManufacturers(brands: { id: number; brand: string }[]): Promise<Brand[]> {
    if (brands.length === 0) return [];
    const rows = await db.kysely
      .selectFrom('brand_manufacturers')
      .select(['brand_id', 'manufacturer'])
      .where(
        'brand_id',
        'in',
        brands.map((b) => b.id),
      )
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
      throw new BadRequest('data', `Unknown manufacturer${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, {
        unknown,
      });
    }
    return keys.map((key) => known.get(key)!);
  }

  async function replaceList(brandId: number, manufacturers: string[]): Promise<void> {
    await db.transaction(async (trx) => {
      await trx.deleteFrom('brand_manufacturers').where('brand_id', '=', brandId).execute();
      if (manufacturers.length > 0) {
        await trx
          .insertInto('brand_manufacturers')
          .values(manufacturers.map((manufacturer, position) => ({ brand_id: brandId, position, manufacturer })))
          .execute();
      }
    });
  }

  async function createBrand(brand: string): Promise<Brand> {
    const exists = async () =>
      (await db.kysely
        .selectFrom('brands')
        .select('id')
        .where('brand_key', '=', brandKey(brand))
        .executeTakeFirst()) !== undefined;
    const duplicate = () => new Conflict('This brand already exists', { field: 'brand' });
    if (await exists()) throw duplicate();
    try {
      const created = await db.kysely
        .insertInto('brands')
        .values({ brand, brand_key: brandKey(brand) })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: created.id, brand, white_labeled_brands: { data: [] } };
    } catch (error) {
      // Another request created it since the check: the unique brand_key refused this one.
      if (await exists()) throw duplicate();
      throw error;
    }
  }

  // Every route answers errors with `message`, which the White Labeled Brands page shows.
  const config = { errorField: 'message' } as const;

  app.get('/api/whitelable/', { config, schema: { response: { 200: Type.Array(BrandAnswer) } } }, async () => {
    const brands = await db.kysely
      .selectFrom('brands')
      .select(['id', 'brand'])
      .orderBy('brand_key')
      .orderBy('id')
      .execute();
    return brandsWithManufacturers(brands);
  });

  app.post(
    '/api/whitelable/',
    {
      config,
      preValidation: requireRole(canEditWhiteLabels, 'You do not have permission to change white labels.'),
      schema: { body: SaveBrand, response: { 200: BrandAnswer, 201: BrandAnswer } },
    },
    async (request, reply) => {
      const { brand, data, id } = request.body;
      const names = manufacturerNames(data ?? []);

      const byId = id !== undefined && id !== null;
      if (!byId && names.length === 0) {
        reply.code(201);
        return createBrand(brand);
      }

      const stored = await db.kysely
        .selectFrom('brands')
        .select(['id', 'brand'])
        .$call((q) => (byId ? q.where('id', '=', Number(id)) : q.where('brand_key', '=', brandKey(brand))))
        .executeTakeFirst();
      if (!stored) throw new NotFound(byId ? 'Brand not found.' : `Brand "${brand}" not found.`);
      if (brandKey(stored.brand) !== brandKey(brand)) {
        throw new BadRequest('brand', `Brand ${stored.id} is "${stored.brand}", not "${brand}".`);
      }
      const manufacturers = await registryNames(names);
      await replaceList(stored.id, manufacturers);
      return { id: stored.id, brand: stored.brand, white_labeled_brands: { data: manufacturers } };
    },
  );

  app.get(
    '/api/get_manufacturer/',
    {
      config,
      schema: {
        querystring: SearchQuery,
        response: { 200: Type.Array(Type.Object({ id: Type.Integer(), manufacturer: Type.String() })) },
      },
    },
    async (request) => {
      const { search } = request.query;
      // The limit applies to the search as matched: trimmed, spaces collapsed (manufacturerKey).
      const needle = manufacturerKey(typeof search === 'string' ? search : '');
      if (needle.length > MAX_SEARCH_LENGTH)
        throw new BadRequest('search', `search must be at most ${MAX_SEARCH_LENGTH} characters.`);
      const alphabetical = db.kysely
        .selectFrom('manufacturers')
        .select(['id', 'manufacturer'])
        .orderBy('manufacturer_key')
        .limit(SEARCH_LIMIT);
      if (!needle) return alphabetical.execute();

      // Names starting with the search are a range of the manufacturer_key index: a short search
      // (the common case while typing) is answered from it alone. Only when they are fewer than the
      // limit are names containing it looked for (PostgreSQL: by its trigram index, migration 003;
      // SQLite: walking the key index until enough are found).
      const afterPrefix = `${needle}\u{10FFFF}`;
      const starting = await alphabetical
        .where('manufacturer_key', '>=', needle)
        .where('manufacturer_key', '<', afterPrefix)
        .execute();
      if (starting.length === SEARCH_LIMIT) return starting;
      const containing = await alphabetical
        .where(sql<boolean>`manufacturer_key like ${`%${likeLiteral(needle)}%`} escape '\\'`)
        .where((eb) => eb.or([eb('manufacturer_key', '<', needle), eb('manufacturer_key', '>=', afterPrefix)]))
        .limit(SEARCH_LIMIT - starting.length)
        .execute();
      return [...starting, ...containing];
    },
  );
};
