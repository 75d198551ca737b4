// api/integrations/endpoints/ and deliveries/ (docs/webhooks.md#the-calls): webhook endpoints and
// their delivery log, for admins (the Integrations screen), as the API keys are.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  MessageAnswer,
  NoQuery,
  WebhookDeliveryPage,
  WebhookDeliveryParams,
  WebhookDeliveryQuery,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointParams,
  WebhookEndpointPayload,
  WebhookReplayAnswer,
  WebhookReplayPayload,
  WebhookSecretAnswer,
  WebhookTestAnswer,
} from '@veritas/shared/domain';
import { auditByOf } from '../audit/actor';
import { targetOfBodyField, targetOfPathParam, type AuditedRoute } from '../audit/refusals';
import { canManageIntegrations } from '../auth/rights';
import { requireRole } from '../plugins/authentication';
import { deliveryPage, deliveryTarget, redeliver, replayFailed, sendTestEvent } from './deliveries';
import type { WebhookDispatcher } from './dispatcher';
import {
  createEndpoint,
  deleteEndpoint,
  endpointLabel,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from './endpoints';

const tags = ['webhooks'];

/** An action on the endpoint its path names: a refusal names it too, by its address (docs/audit.md#refusals). */
const onEndpoint = (action: AuditedRoute['action']) => ({
  audit: { action, target: targetOfPathParam('webhook', 'id', endpointLabel) },
});

export interface WebhookRoutesOptions {
  allowLocal: boolean;
  /** This instance's dispatcher, woken when an admin queues a message; null when none runs. */
  dispatcher: WebhookDispatcher | null;
}

export const webhookRoutes: FastifyPluginAsyncTypebox<WebhookRoutesOptions> = async (
  app,
  { allowLocal, dispatcher },
) => {
  const { db } = app;
  const policy = { allowLocal };
  app.addHook('preValidation', requireRole(canManageIntegrations, 'Only an admin may manage integrations.'));

  app.get(
    '/api/integrations/endpoints/',
    {
      schema: {
        tags,
        summary: 'Every webhook endpoint, newest first (never its secret)',
        querystring: NoQuery,
        response: { 200: WebhookEndpointList },
      },
    },
    async () => ({ endpoints: await listEndpoints(db) }),
  );

  app.post(
    '/api/integrations/endpoints/',
    {
      config: { audit: { action: 'webhook.created', target: targetOfBodyField('webhook', 'url') } },
      schema: {
        tags,
        summary: 'Add a webhook endpoint: its signing secret is answered this once',
        body: WebhookEndpointPayload,
        response: { 201: WebhookSecretAnswer },
      },
    },
    async (request, reply) => {
      const created = await createEndpoint(db, request.body, request.user.id, auditByOf(request), policy);
      reply.code(201);
      return created;
    },
  );

  app.post(
    '/api/integrations/endpoints/:id/',
    {
      config: onEndpoint('webhook.updated'),
      schema: {
        tags,
        summary: 'Change an endpoint: its address, events, description, enabled or not',
        params: WebhookEndpointParams,
        body: WebhookEndpointPayload,
        response: { 200: WebhookEndpoint },
      },
    },
    async (request) => updateEndpoint(db, Number(request.params.id), request.body, auditByOf(request), policy),
  );

  // No body: the id in the path is the only input.
  app.post(
    '/api/integrations/endpoints/:id/delete/',
    {
      config: onEndpoint('webhook.deleted'),
      schema: {
        tags,
        summary: 'Delete an endpoint and its delivery log',
        params: WebhookEndpointParams,
        response: { 200: MessageAnswer },
      },
    },
    async (request) => {
      await deleteEndpoint(db, Number(request.params.id), auditByOf(request));
      return { message: 'The endpoint is deleted.' };
    },
  );

  app.post(
    '/api/integrations/endpoints/:id/rotate/',
    {
      config: onEndpoint('webhook.secret-rotated'),
      schema: {
        tags,
        summary: 'A new signing secret, answered this once; the old one signs too for 24 hours',
        params: WebhookEndpointParams,
        response: { 200: WebhookSecretAnswer },
      },
    },
    async (request) => rotateSecret(db, Number(request.params.id), auditByOf(request)),
  );

  app.post(
    '/api/integrations/endpoints/:id/test/',
    {
      schema: {
        tags,
        summary: 'Send the test event (webhook.test) to the endpoint',
        params: WebhookEndpointParams,
        response: { 202: WebhookTestAnswer },
      },
    },
    async (request, reply) => {
      const messageId = await sendTestEvent(db, Number(request.params.id));
      dispatcher?.wake();
      reply.code(202);
      return { messageId };
    },
  );

  app.get(
    '/api/integrations/endpoints/:id/deliveries/',
    {
      schema: {
        tags,
        summary: 'The endpoint’s delivery log, newest first, each with its latest attempts',
        params: WebhookEndpointParams,
        querystring: WebhookDeliveryQuery,
        response: { 200: WebhookDeliveryPage },
      },
    },
    async (request) => deliveryPage(db, Number(request.params.id), request.query),
  );

  app.post(
    '/api/integrations/endpoints/:id/replay/',
    {
      config: onEndpoint('webhook.replayed'),
      schema: {
        tags,
        summary: 'Deliver again every failed message of the endpoint since a time',
        params: WebhookEndpointParams,
        body: WebhookReplayPayload,
        response: { 200: WebhookReplayAnswer },
      },
    },
    async (request) => {
      const replayed = await replayFailed(
        db,
        Number(request.params.id),
        Date.parse(request.body.since),
        auditByOf(request),
      );
      dispatcher?.wake();
      return { replayed };
    },
  );

  app.post(
    '/api/integrations/deliveries/:id/redeliver/',
    {
      config: {
        audit: {
          action: 'webhook.redelivered',
          target: (request, db) => deliveryTarget((request.params as { id?: unknown }).id, db),
        },
      },
      schema: {
        tags,
        summary: 'Deliver one message to its endpoint again, now (the same webhook-id)',
        params: WebhookDeliveryParams,
        response: { 200: MessageAnswer },
      },
    },
    async (request) => {
      await redeliver(db, Number(request.params.id), auditByOf(request));
      dispatcher?.wake();
      return { message: 'The message will be delivered again.' };
    },
  );
};
