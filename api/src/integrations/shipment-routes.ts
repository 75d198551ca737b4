// api/v1/shipments/ (docs/integrations.md#shipments-in): an order system's shipments in, with an
// API key of the scope shipments:write. The body, JSON or CSV, is read as a stream by the handler
// (shipment-body.ts), once the key and its scope were checked: nothing of it is read before, and
// never whole. Its schema is documented (config.documentedBody), and each JSON item is checked
// against it as it is read.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  NoQuery,
  ShipmentBody,
  ShipmentHeaders,
  ShipmentJob,
  ShipmentParams,
  ShipmentState,
  UploadResult,
} from '@veritas/shared/domain';
import type { TSchema } from '@sinclair/typebox';
import { UnsupportedMediaType } from '../http-errors';
import { requireScope } from './api-keys';
import { bodyTooLarge, MAX_BODY_BYTES, type BodyFormat } from './shipment-body';
import { Shipments } from './shipments';

const tags = ['api v1'];
const REPLAYED = "'true' when the answer is the first request's with this Idempotency-Key, given again.";
const MEDIA_TYPES: Readonly<Record<string, BodyFormat>> = { 'application/json': 'json', 'text/csv': 'csv' };

const formatOf = (contentType: string | undefined): BodyFormat | undefined =>
  MEDIA_TYPES[(contentType ?? '').split(';')[0]!.trim().toLowerCase()];

export const apiV1ShipmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  const shipments = new Shipments(db, app.log, `${app.prefix}/api/v1/shipments/`);
  app.addHook('onClose', () => shipments.stop());

  // This scope's bodies reach the handler as the request's stream; other media types answer 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(Object.keys(MEDIA_TYPES), (_request, payload, done) => done(null, payload));
  // An answer given before the body was read whole (a refusal) closes the connection: the rest of
  // the body, up to 100 MiB, is not read for nothing.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.raw.complete) reply.header('connection', 'close');
    return payload;
  });

  app.post(
    '/api/v1/shipments/',
    {
      preValidation: requireScope('shipments:write'),
      config: {
        documentedBody: ShipmentBody as unknown as TSchema,
        answerHeaders: {
          200: { 'idempotent-replayed': REPLAYED },
          202: { location: 'Where to poll the job: GET api/v1/shipments/{id}/.', 'idempotent-replayed': REPLAYED },
        },
      },
      schema: {
        tags,
        summary:
          'Send a shipment, JSON items or the upload’s CSV, once per Idempotency-Key: 200 with the result, or 202 with a job to poll (scope shipments:write)',
        headers: ShipmentHeaders,
        response: { 200: UploadResult, 202: ShipmentJob },
      },
    },
    async (request, reply) => {
      const format = formatOf(request.headers['content-type']);
      const body = request.body as AsyncIterable<Buffer> | undefined;
      if (!format || !body) throw new UnsupportedMediaType('Send the shipment as application/json or text/csv.');
      if (Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES) throw bodyTooLarge();
      const answer = await shipments.receive({
        token: request.accessToken!,
        idempotencyKey: request.headers['idempotency-key'],
        format,
        body,
        address: request.ip,
      });
      if (answer.repeated) reply.header('idempotent-replayed', 'true');
      if (answer.status === 202) return reply.code(202).header('location', answer.job.poll).send(answer.job);
      return answer.result;
    },
  );

  app.get(
    '/api/v1/shipments/:id/',
    {
      preValidation: requireScope('shipments:write'),
      schema: {
        tags,
        summary:
          'The state of a shipment sent by this key: processing, done with its result, or failed (scope shipments:write)',
        params: ShipmentParams,
        querystring: NoQuery,
        response: { 200: ShipmentState },
      },
    },
    async (request) => shipments.state(request.accessToken!, request.params.id),
  );
};
