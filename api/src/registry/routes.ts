// The remote registry (docs/deploying-a-remote.md, src/registry/, src/access-tokens/): versions,
// rollouts, deploy tokens and allowed origins under registry/. A remote's calls take a deploy token
// of that remote or an admin's session; the list of every remote, tokens and origins a session only.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  AccessToken,
  AccessTokenList,
  AllowedOriginList,
  CanaryPayload,
  CreatedToken,
  NoQuery,
  OriginPayload,
  PromotePayload,
  PublishAnswer,
  PublishPayload,
  RemoteDeployment,
  RemoteDeploymentList,
  RemoteParams,
  RolloutHistoryPage,
  RolloutHistoryQuery,
  TokenCreatePayload,
  TokenParams,
  type AuditAction,
} from '@veritas/shared/domain';
import {
  createAccessToken,
  listAccessTokens,
  revokeAccessToken,
  tokenAllows,
  tokenLabel,
} from '../access-tokens/access-tokens';
import { auditByOf } from '../audit/actor';
import { targetOfBodyField, targetOfPathParam, type AuditedRoute } from '../audit/refusals';
import { Forbidden } from '../http-errors';
import { documentAccess } from '../plugins/openapi';
import { allowOrigin, listAllowedOrigins, removeOrigin } from './origins';
import { publish } from './publish';
import {
  deploymentOf,
  historyPage,
  listDeployments,
  promote,
  retire,
  rollback,
  startCanary,
  stopCanary,
} from './rollout';
import type { RegistryConfig } from './versions';
import { canDeploy, canManageDeployAccess } from '../auth/rights';

const tags = ['registry'];
/** A build's files travel base64 in JSON: a third more than their bytes (MAX_BUILD_BYTES). */
const PUBLISH_BODY_LIMIT = 64 * 1024 * 1024;

/** The audit config of an action on the remote its path names, so that its refusals are recorded. */
const onRemote = (action: AuditAction): { audit: AuditedRoute } => ({
  audit: { action, target: targetOfPathParam('remote', 'remote') },
});

/** The remote's calls: a token whose scope names the remote (or `deploy:*`), or an admin's session. */
async function mayDeploy(request: FastifyRequest): Promise<void> {
  // Read before the schema: the refusal comes first (a name that is no remote's is refused by the schema after).
  const { remote } = request.params as { remote?: unknown };
  const token = request.accessToken;
  if (token) {
    if (typeof remote !== 'string' || !tokenAllows(token, 'deploy', remote)) {
      const [capability, target] = token.scope.split(':');
      throw new Forbidden(
        capability === 'deploy' ? `This token may deploy ${target} only.` : 'This token may not deploy remotes.',
      );
    }
  } else if (!canDeploy(request.user.role)) {
    throw new Forbidden('Only admins may deploy remotes.');
  }
}

/** A session's call only (never a token), by a role `allowed` takes. */
function sessionOnly(allowed: (role: FastifyRequest['user']['role']) => boolean, refusal: string) {
  return async function checkSession(request: FastifyRequest): Promise<void> {
    if (request.accessToken) throw new Forbidden('A deploy token may only publish and roll out its remotes.');
    if (!allowed(request.user.role)) throw new Forbidden(refusal);
  };
}

export const registryRoutes: FastifyPluginAsyncTypebox<{ config: RegistryConfig }> = async (app, { config }) => {
  // A remote's calls: its deploy tokens or an admin's session (documented so).
  await app.register(async (scope) => {
    documentAccess(scope, 'deploy');
    await scope.register(deploymentRoutes, { config });
  });
  // Every remote's rollout, and who may deploy and from where: a session only.
  await app.register(async (scope) => {
    documentAccess(scope, 'session');
    await scope.register(deploymentListRoute);
    await scope.register(accessRoutes);
  });
};

const deploymentRoutes: FastifyPluginAsyncTypebox<{ config: RegistryConfig }> = async (remotes, { config }) => {
  const { db } = remotes;
  const params = RemoteParams;

  remotes.get(
    '/registry/remotes/:remote/',
    {
      preValidation: mayDeploy,
      schema: {
        tags,
        summary: "A remote's live version, canary, kept versions (newest first) and newest 50 changes",
        params,
        querystring: NoQuery,
        response: { 200: RemoteDeployment },
      },
    },
    async (request) => deploymentOf(db, request.params.remote),
  );

  remotes.get(
    '/registry/remotes/:remote/history/',
    {
      preValidation: mayDeploy,
      schema: {
        tags,
        summary: "A page of a remote's rollout changes, newest first: `next` reads the older ones",
        params,
        querystring: RolloutHistoryQuery,
        response: { 200: RolloutHistoryPage },
      },
    },
    async (request) => historyPage(db, request.params.remote, request.query),
  );

  remotes.post(
    '/registry/remotes/:remote/versions/',
    {
      bodyLimit: PUBLISH_BODY_LIMIT,
      config: onRemote('remote.published'),
      preValidation: mayDeploy,
      schema: {
        tags,
        summary: 'Publish a version: the build files, or the https base URL of a build on an allowed origin',
        params,
        body: PublishPayload,
        response: { 200: PublishAnswer, 201: PublishAnswer },
      },
    },
    async (request, reply) => {
      const { files, baseUrl, integrity, note } = request.body;
      const input = baseUrl === undefined ? { files: files! } : { baseUrl, integrity: integrity! };
      const answer = await publish(db, config, request.params.remote, input, note ?? null, auditByOf(request));
      reply.code(answer.created ? 201 : 200);
      return answer;
    },
  );

  remotes.post(
    '/registry/remotes/:remote/promote/',
    {
      config: onRemote('remote.promoted'),
      preValidation: mayDeploy,
      schema: {
        tags,
        summary: 'Make a version live for everyone (ends any canary)',
        params,
        body: PromotePayload,
        response: { 200: RemoteDeployment },
      },
    },
    async (request) => promote(db, config, request.params.remote, Number(request.body.version), auditByOf(request)),
  );

  remotes.post(
    '/registry/remotes/:remote/canary/',
    {
      config: onRemote('remote.canary-started'),
      preValidation: mayDeploy,
      schema: {
        tags,
        summary: 'Serve a version to a share of users',
        params,
        body: CanaryPayload,
        response: { 200: RemoteDeployment },
      },
    },
    async (request) => {
      const { version, percent } = request.body;
      return startCanary(db, config, request.params.remote, Number(version), percent, auditByOf(request));
    },
  );

  // No body: the remote is the only input.
  remotes.post(
    '/registry/remotes/:remote/canary/stop/',
    {
      config: onRemote('remote.canary-stopped'),
      preValidation: mayDeploy,
      schema: { tags, summary: 'End the canary', params, response: { 200: RemoteDeployment } },
    },
    async (request) => stopCanary(db, request.params.remote, auditByOf(request)),
  );

  remotes.post(
    '/registry/remotes/:remote/rollback/',
    {
      config: onRemote('remote.rolled-back'),
      preValidation: mayDeploy,
      schema: {
        tags,
        summary: 'Make the previous live version live again',
        params,
        response: { 200: RemoteDeployment },
      },
    },
    async (request) => rollback(db, request.params.remote, auditByOf(request)),
  );

  // No body: the remote is the only input.
  remotes.post(
    '/registry/remotes/:remote/retire/',
    {
      config: onRemote('remote.retired'),
      preValidation: mayDeploy,
      schema: {
        tags,
        summary: 'Retire a remote: no version live nor canary, so the console shows nothing of it',
        params,
        response: { 200: RemoteDeployment },
      },
    },
    async (request) => retire(db, request.params.remote, auditByOf(request)),
  );
};

/** The Deployments page's list of every remote: an admin's session, not a token scoped to remotes. */
const deploymentListRoute: FastifyPluginAsyncTypebox = async (list) => {
  const { db } = list;
  list.get(
    '/registry/remotes/',
    {
      preValidation: sessionOnly(canDeploy, 'Only admins may see the deployments.'),
      schema: {
        tags,
        summary: 'Every remote: its live version, canary, kept versions and newest 50 changes',
        querystring: NoQuery,
        response: { 200: RemoteDeploymentList },
      },
    },
    async () => ({ remotes: await listDeployments(db) }),
  );
};

const accessRoutes: FastifyPluginAsyncTypebox = async (access) => {
  const { db } = access;
  const preValidation = sessionOnly(canManageDeployAccess, 'Only a super_admin may manage deploy tokens and origins.');

  access.get(
    '/registry/tokens/',
    {
      preValidation,
      schema: {
        tags,
        summary: 'Every deploy token (never its secret)',
        querystring: NoQuery,
        response: { 200: AccessTokenList },
      },
    },
    async () => ({ tokens: await listAccessTokens(db, 'deploy') }),
  );

  access.post(
    '/registry/tokens/',
    {
      config: { audit: { action: 'token.created', target: targetOfBodyField('token', 'label') } },
      preValidation,
      schema: {
        tags,
        summary: 'Create a deploy token: its secret is answered this once',
        body: TokenCreatePayload,
        response: { 201: CreatedToken },
      },
    },
    async (request, reply) => {
      const created = await createAccessToken(db, request.body, auditByOf(request));
      reply.code(201);
      return created;
    },
  );

  // No body: the id in the path is the only input.
  access.post(
    '/registry/tokens/:id/revoke/',
    {
      config: { audit: { action: 'token.revoked', target: targetOfPathParam('token', 'id', tokenLabel) } },
      preValidation,
      schema: { tags, summary: 'Revoke a deploy token', params: TokenParams, response: { 200: AccessToken } },
    },
    async (request) => revokeAccessToken(db, 'deploy', Number(request.params.id), auditByOf(request)),
  );

  access.get(
    '/registry/origins/',
    {
      preValidation,
      schema: {
        tags,
        summary: 'The origins external builds may be served from',
        querystring: NoQuery,
        response: { 200: AllowedOriginList },
      },
    },
    async () => ({ origins: await listAllowedOrigins(db) }),
  );

  access.post(
    '/registry/origins/',
    {
      config: { audit: { action: 'origin.added', target: targetOfBodyField('origin', 'origin') } },
      preValidation,
      schema: {
        tags,
        summary: 'Allow an origin for external builds (and the console page scripts)',
        body: OriginPayload,
        response: { 201: AllowedOriginList },
      },
    },
    async (request, reply) => {
      const origins = await allowOrigin(db, request.body.origin, auditByOf(request));
      reply.code(201);
      return { origins };
    },
  );

  access.post(
    '/registry/origins/remove/',
    {
      config: { audit: { action: 'origin.removed', target: targetOfBodyField('origin', 'origin') } },
      preValidation,
      schema: {
        tags,
        summary: 'Remove an allowed origin',
        body: OriginPayload,
        response: { 200: AllowedOriginList },
      },
    },
    async (request) => ({ origins: await removeOrigin(db, request.body.origin, auditByOf(request)) }),
  );
};
