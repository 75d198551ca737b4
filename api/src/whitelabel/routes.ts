// api/whitelable/ and api/get_manufacturer/ (docs/screens.md#white-labeled-brands, src/whitelabel/): white-labelled
// brands with the manufacturers they sell under their name, and search over the IEEE manufacturer registry.
// Error bodies carry `message`, which the console shows.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Brand, BrandList, ManufacturerList, ManufacturerQuery, NoQuery, SaveBrand } from '@veritas/shared/domain';
import { auditByOf } from '../audit/actor';
import { targetOfBodyField } from '../audit/refusals';
import { requireRole } from '../plugins/authentication';
import { canEditWhiteLabels } from '../auth/rights';
import { findManufacturers, listBrands, saveBrand } from './brands';

const tags = ['white labels'];

export const whitelabelRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  // Every route answers errors with `message`, which the White Labeled Brands page shows.
  const config = { errorField: 'message' } as const;

  const list = {
    tags,
    summary: 'Every brand with its manufacturers',
    querystring: NoQuery,
    response: { 200: BrandList },
  };
  app.get('/api/whitelable/', { config, schema: list }, async () => listBrands(db));

  app.post(
    '/api/whitelable/',
    {
      config: {
        ...config,
        audit: {
          // A refused save is recorded as an update: whether it would have created the brand is not known.
          action: 'brand.updated',
          target: targetOfBodyField('brand', 'brand'),
        },
      },
      preValidation: requireRole(canEditWhiteLabels, 'You do not have permission to change white labels.'),
      schema: {
        tags,
        summary: "Create a brand (201), or replace a brand's manufacturers (200)",
        body: SaveBrand,
        response: { 200: Brand, 201: Brand },
      },
    },
    async (request, reply) => {
      const { created, brand } = await saveBrand(db, auditByOf(request), request.body);
      if (created) reply.code(201);
      return brand;
    },
  );

  app.get(
    '/api/get_manufacturer/',
    {
      config,
      schema: {
        tags,
        summary: 'Search the IEEE manufacturer registry (50 names at most)',
        querystring: ManufacturerQuery,
        response: { 200: ManufacturerList },
      },
    },
    async (request) => findManufacturers(db, request.query.search),
  );
};
