// API keys (docs/integrations.md#api-keys): access tokens whose scopes are API_KEY_SCOPES, created
// and revoked by an admin on the Integrations screen, sent by an order system as
// `Authorization: Bearer vrt_…` to /veritas/api/v1/. A key is counted against its rate on every
// call, and every refusal of a known key is in the audit trail (an unknown secret names nobody).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API_KEY_SCOPE_LABELS,
  API_KEY_SCOPES,
  type AccessToken,
  type ApiKeyCreatePayload,
  type ApiKeyScope,
  type CreatedToken,
} from '@veritas/shared/domain';
import {
  accessTokenSecretOf,
  checkAccessToken,
  createAccessToken,
  listAccessTokens,
  revokeAccessToken,
  tokenAllows,
  type TokenCaller,
} from '../access-tokens/access-tokens';
import { recordAuditAlone, tokenBy, type AuditBy } from '../audit/trail';
import type { Db } from '../db/schema';
import { Forbidden, TooManyRequests, Unauthorized } from '../http-errors';

/** Calls per minute per key unless VERITAS_API_KEY_RATE says otherwise. */
export const DEFAULT_API_KEY_RATE = 600;

export const listApiKeys = (db: Db): Promise<AccessToken[]> => listAccessTokens(db, 'api-key');

/** A new key: its scopes in API_KEY_SCOPES' order, joined by spaces. */
export function createApiKey(db: Db, input: ApiKeyCreatePayload, by: AuditBy): Promise<CreatedToken> {
  const scope = API_KEY_SCOPES.filter((scope) => input.scopes.includes(scope)).join(' ');
  return createAccessToken(db, { label: input.label, scope, expiresOn: input.expiresOn }, by);
}

export const revokeApiKey = (db: Db, id: number, by: AuditBy): Promise<AccessToken> =>
  revokeAccessToken(db, 'api-key', id, by);

/** Records that `token`'s call was refused, and why, in a transaction of its own. */
async function recordRefusal(db: Db, request: FastifyRequest, token: TokenCaller, reason: string): Promise<void> {
  await recordAuditAlone(db, tokenBy(token, request.ip ?? null), {
    action: 'token.refused',
    outcome: 'refused',
    target: { kind: 'token', id: token.id, label: token.label },
    details: { reason, call: `${request.method} ${request.routeOptions.url ?? request.url}` },
  });
}

/**
 * The hook of /veritas/api/v1/: the key behind the Authorization header, counted against
 * `ratePerMinute`; 401 without a usable key, 429 with Retry-After over the rate (its first refusal
 * in a window recorded, not each).
 */
export function requireApiKey(ratePerMinute: number) {
  return async function checkApiKey(this: FastifyInstance, request: FastifyRequest): Promise<void> {
    const secret = accessTokenSecretOf(request);
    if (secret === undefined) throw new Unauthorized('Call with an API key: Authorization: Bearer vrt_….');
    const check = await checkAccessToken(this.db, secret, ratePerMinute);
    if (check.ok) {
      request.accessToken = check.token;
      return;
    }
    if (check.reason === 'rate') {
      if (check.firstRefusal)
        await recordRefusal(this.db, request, check.token, `over ${ratePerMinute} calls a minute`);
      throw new TooManyRequests(
        `This key made more than ${ratePerMinute} calls this minute: try again in ${check.retryAfterSeconds} s.`,
        check.retryAfterSeconds,
      );
    }
    if (check.token) await recordRefusal(this.db, request, check.token, check.reason);
    throw new Unauthorized(check.reason === 'unknown' ? 'The API key is unknown.' : `The API key is ${check.reason}.`);
  };
}

/** A route's scope: 403, recorded, unless the caller's key has it. */
export function requireScope(scope: ApiKeyScope) {
  const [capability, target] = scope.split(':') as [string, string];
  return async function checkScope(this: FastifyInstance, request: FastifyRequest): Promise<void> {
    const token = request.accessToken!;
    if (tokenAllows(token, capability, target)) return;
    await recordRefusal(this.db, request, token, `needs ${scope}`);
    throw new Forbidden(`This key may not ${API_KEY_SCOPE_LABELS[scope].toLowerCase()}: it needs the scope ${scope}.`);
  };
}
