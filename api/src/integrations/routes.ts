// api/integrations/ (docs/integrations.md): the API keys, for admins (the Integrations screen).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AccessToken,
  AccessTokenList,
  ApiKeyCreatePayload,
  CreatedToken,
  NoQuery,
  TokenParams,
} from '@veritas/shared/domain';
import { auditByOf } from '../audit/actor';
import { tokenLabel } from '../access-tokens/access-tokens';
import { targetOfBodyField, targetOfPathParam } from '../audit/refusals';
import { canManageIntegrations } from '../auth/rights';
import { requireRole } from '../plugins/authentication';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys';

const tags = ['integrations'];

export const integrationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  app.addHook('preValidation', requireRole(canManageIntegrations, 'Only an admin may manage integrations.'));

  app.get(
    '/api/integrations/keys/',
    {
      schema: {
        tags,
        summary: 'Every API key, newest first (never its secret)',
        querystring: NoQuery,
        response: { 200: AccessTokenList },
      },
    },
    async () => ({ tokens: await listApiKeys(db) }),
  );

  app.post(
    '/api/integrations/keys/',
    {
      config: { audit: { action: 'token.created', target: targetOfBodyField('token', 'label') } },
      schema: {
        tags,
        summary: 'Create an API key: its secret is answered this once',
        body: ApiKeyCreatePayload,
        response: { 201: CreatedToken },
      },
    },
    async (request, reply) => {
      const created = await createApiKey(db, request.body, auditByOf(request));
      reply.code(201);
      return created;
    },
  );

  // No body: the id in the path is the only input.
  app.post(
    '/api/integrations/keys/:id/revoke/',
    {
      config: { audit: { action: 'token.revoked', target: targetOfPathParam('token', 'id', tokenLabel) } },
      schema: { tags, summary: 'Revoke an API key, at once', params: TokenParams, response: { 200: AccessToken } },
    },
    async (request) => revokeApiKey(db, Number(request.params.id), auditByOf(request)),
  );
};
