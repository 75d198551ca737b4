// A case's photos (src/cases/photos.ts, docs/cases.md#photos): api/cases/{id}/photos/ adds one from
// the console, api/cases/photos/{id}/ answers its bytes, app/cases/photo/ adds one from the mobile
// app at the doorstep. The body is the image's bytes themselves, parsed only in these scopes; its
// type is recognised from the bytes, not from its Content-Type.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  AppCasePhotoQuery,
  CASE_PHOTO_TYPES,
  CaseIdParams,
  CasePhoto,
  MAX_CASE_PHOTO_BYTES,
  NoQuery,
} from '@veritas/shared/domain';
import { auditByOf } from '../audit/actor';
import type { AuditedRoute } from '../audit/refusals';
import { caseInPath } from './audit-targets';
import { addAppCasePhoto, addCasePhoto, extensionOf, PHOTO_TOO_LARGE, readCasePhoto } from './photos';

const tags = ['cases'];

/** The media types the document says a photo is sent as; whichever is named, the bytes decide its type. */
const PHOTO_MEDIA_TYPES = [...CASE_PHOTO_TYPES, 'application/octet-stream'];
/**
 * A little over the largest photo: a body up to this is read and refused by the photo's own rule
 * (413 with its message), a larger one by Fastify before it is read in full (413 too, with the
 * same message: `bodyTooLarge`).
 */
const PHOTO_BODY_LIMIT = MAX_CASE_PHOTO_BYTES + 64 * 1024;

/** The body as the document shows it; the handler checks the bytes themselves. */
const PhotoBytes = Type.String({
  format: 'binary',
  description: `The photo’s bytes: a JPEG, PNG or WebP image of at most ${MAX_CASE_PHOTO_BYTES / (1024 * 1024)} MiB.`,
});
/** Validates nothing: the bytes are checked by the handler (photos.ts), which the 4xx answers tell. */
const AnyBody = Type.Unsafe<Buffer>({ description: PhotoBytes.description });

const PhotoIdParams = Type.Object({
  id: Type.String({
    pattern: '^[1-9][0-9]{0,9}$',
    errorMessages: { missing: 'The photo id must be a number.', pattern: 'The photo id must be a number.' },
  }),
});

/**
 * The routes of this scope take the image's bytes as their body, and no JSON: whatever the
 * Content-Type says (or none), which is not trusted; the bytes decide (photos.ts).
 */
function parsePhotoBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: PHOTO_BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  );
}

const AUDITED: { audit: AuditedRoute } = {
  audit: { action: 'case.photo-added', target: caseInPath },
};

const APP_AUDITED: { audit: AuditedRoute } = {
  audit: {
    action: 'case.photo-added',
    target: (request) => {
      const trackingId = (request.query as { tracking_id?: unknown } | undefined)?.tracking_id;
      return typeof trackingId === 'string' ? { kind: 'case', id: null, label: trackingId.trim().slice(0, 200) } : null;
    },
    details: { channel: 'app' },
  },
};

/** For the console's signed-in scope (requireSession). */
export const casePhotoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  parsePhotoBodies(app);

  app.post(
    '/api/cases/:id/photos/',
    {
      config: { ...AUDITED, documentedBody: PhotoBytes, bodyTooLarge: PHOTO_TOO_LARGE },
      schema: {
        tags,
        summary: 'Add a photo to a case (its metadata, GPS position included, is removed)',
        consumes: PHOTO_MEDIA_TYPES,
        params: CaseIdParams,
        body: AnyBody,
        response: { 201: CasePhoto },
      },
    },
    async (request, reply) => {
      const photo = await addCasePhoto(
        db,
        auditByOf(request),
        request.user,
        Number(request.params.id),
        request.body as Buffer,
      );
      reply.code(201);
      return photo;
    },
  );

  app.get(
    '/api/cases/photos/:id/',
    {
      schema: {
        tags,
        summary: "A case's photo: its bytes, never to be run as a page",
        params: PhotoIdParams,
        querystring: NoQuery,
        response: {
          200: {
            description: 'The photo, as a JPEG, PNG or WebP image',
            content: { 'image/*': { schema: { type: 'string', format: 'binary' } } },
          },
        },
      },
    },
    async (request, reply) => {
      const photo = await readCasePhoto(db, request.user, Number(request.params.id));
      // An image that is only an image: no sniffing, nothing it could load or run, never a page.
      return reply
        .type(photo.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('content-disposition', `inline; filename="case-photo-${photo.id}.${extensionOf(photo.contentType)}"`)
        .header('cache-control', 'private, max-age=86400')
        .send(photo.bytes);
    },
  );
};

/** For the mobile app's scope (requireAppToken): a photo taken at the doorstep. */
export const appCasePhotoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  parsePhotoBodies(app);

  app.post(
    '/app/cases/photo/',
    {
      config: { ...APP_AUDITED, documentedBody: PhotoBytes, bodyTooLarge: PHOTO_TOO_LARGE },
      schema: {
        tags,
        summary: 'Add a photo to the open case of a tracking ID, at the doorstep',
        consumes: PHOTO_MEDIA_TYPES,
        querystring: AppCasePhotoQuery,
        body: AnyBody,
        response: { 201: CasePhoto },
      },
    },
    async (request, reply) => {
      const photo = await addAppCasePhoto(
        db,
        auditByOf(request),
        request.user,
        request.query.tracking_id,
        request.body as Buffer,
      );
      reply.code(201);
      return photo;
    },
  );
};
