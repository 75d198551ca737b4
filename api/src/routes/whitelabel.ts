// api/whitelable/ and api/get_manufacturer/ (docs/screens.md#white-labeled-brands, src/whitelabel/): white-labelled
// brands with the manufacturers they sell under their name, and search over the IEEE manufacturer registry.
// Error bodies carry `message`, which the console shows.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireRole } from '../plugins/authentication';
import { canEditWhiteLabels } from '../roles';
import { Id, Text } from '../schemas';
import { findManufacturers, listBrands, saveBrand } from '../whitelabel/brands';

const MAX_BRAND_LENGTH = 128;

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
  // Registry names. Absent or null: none. Too many is refused after duplicates are
  // dropped, so saveBrand counts them.
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

export const whitelabelRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  // Every route answers errors with `message`, which the White Labeled Brands page shows.
  const config = { errorField: 'message' } as const;

  app.get('/api/whitelable/', { config, schema: { response: { 200: Type.Array(BrandAnswer) } } }, async () =>
    listBrands(db),
  );

  app.post(
    '/api/whitelable/',
    {
      config,
      preValidation: requireRole(canEditWhiteLabels, 'You do not have permission to change white labels.'),
      schema: { body: SaveBrand, response: { 200: BrandAnswer, 201: BrandAnswer } },
    },
    async (request, reply) => {
      const { created, brand } = await saveBrand(db, request.body);
      if (created) reply.code(201);
      return brand;
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
    async (request) => findManufacturers(db, request.query.search),
  );
};
