// api/exclude_list/: the brands exempt from the manufacturer check of doorstep scans (E005/E006),
// e.g. brands whose devices carry other makers' radio modules. Read by any console user, edited
// by admins.
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../auth/guard';
import type { Db } from '../db/schema';
import { HttpError, badRequest, bodyOf, text } from '../http';
import { canEditWhiteLabels } from '../roles';

const MAX_BRAND_LENGTH = 128;

function brandOf(requestBody: unknown): { brand: string; brandKey: string } {
  const brand = text(bodyOf(requestBody).brand);
  if (!brand) throw badRequest('brand', 'brand is required.');
  if (brand.length > MAX_BRAND_LENGTH) throw badRequest('brand', `brand must be at most ${MAX_BRAND_LENGTH} characters.`);
  return { brand, brandKey: brand.toLowerCase() };
}

export async function excludeListRoutes(app: FastifyInstance, { db }: { db: Db }) {
  async function requireEditor(request: Parameters<typeof requireUser>[1]) {
    const user = await requireUser(db, request);
    if (!canEditWhiteLabels(user.role)) throw new HttpError(403, { detail: 'Only an admin or super admin can change the exclude list.' });
  }

  app.get('/api/exclude_list/', async (request) => {
    await requireUser(db, request);
    return db.kysely.selectFrom('brand_exclusions').select('brand').orderBy('brand_key').execute();
  });

  app.post('/api/exclude_list/', async (request, reply) => {
    await requireEditor(request);
    const { brand, brandKey } = brandOf(request.body);
    const added = await db.kysely
      .insertInto('brand_exclusions')
      .values({ brand_key: brandKey, brand })
      .onConflict((oc) => oc.column('brand_key').doNothing())
      .executeTakeFirst();
    if (Number(added.numInsertedOrUpdatedRows) !== 1) throw new HttpError(409, { detail: `${brand} is already on the exclude list.` });
    reply.code(201);
    return { brand };
  });

  app.post('/api/exclude_list/remove/', async (request) => {
    await requireEditor(request);
    const { brand, brandKey } = brandOf(request.body);
    const removed = await db.kysely.deleteFrom('brand_exclusions').where('brand_key', '=', brandKey).executeTakeFirst();
    if (Number(removed.numDeletedRows) !== 1) throw new HttpError(404, { detail: `${brand} is not on the exclude list.` });
    return { message: `${brand} removed from the exclude list` };
  });
}
