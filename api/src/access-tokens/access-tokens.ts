// Access tokens, as `Authorization: Bearer vrt_…`: deploy tokens (docs/sessions.md#deploy-tokens),
// what a pipeline publishes and rolls out a remote with, and API keys
// (docs/integrations.md#api-keys), what an order system calls /veritas/api/v1/ with. A token's
// `scope` is one or more `<capability>:<target>` joined by spaces (`deploy:devices`, `deploy:*`,
// `shipments:write records:read`): a deploy token's capability is `deploy`, an API key's are the
// others. The secret is shown once, when created; the database keeps its SHA-256 only.
import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import {
  latestTokenExpiry,
  MAX_TOKEN_YEARS,
  scopesOf,
  type AccessToken,
  type CreatedToken,
  type TokenCreatePayload,
} from '@veritas/shared/domain';
import { actorLabel, recordAudit, type AuditBy } from '../audit/trail';
import { isoOfMs, MAX_SERIAL_ID, type Db } from '../db/schema';
import { BadRequest, NotFound } from '../http-errors';
import {
  countTokenCall,
  findAccessTokenByHash,
  findAccessTokenById,
  findAccessTokens,
  insertAccessToken,
  revokeAccessTokenById,
} from './repository';

/** Every access token's secret starts so: a token is told from other bearer tokens (the mobile app's) by it. */
export const ACCESS_TOKEN_PREFIX = 'vrt_';

/** The caller behind an access token. */
export interface TokenCaller {
  id: number;
  label: string;
  scope: string;
}

/** Deploy tokens (scope `deploy:…`) or API keys (every other scope). */
export type TokenKind = 'deploy' | 'api-key';

const kindOf = (scope: string): TokenKind => (scope.startsWith('deploy:') ? 'deploy' : 'api-key');

/**
 * SHA-256, not a slow password hash: the secret is 32 random bytes, which no guessing can reach,
 * so a fast hash loses nothing and every call can check its token in one indexed query.
 */
const hashSecret = (secret: string) => crypto.createHash('sha256').update(secret).digest('hex');

const DAY_MS = 24 * 60 * 60 * 1000;

/** The secret of `Authorization: Bearer vrt_…`, or undefined when the request carries none. */
export function accessTokenSecretOf(request: FastifyRequest): string | undefined {
  const secret = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  return secret?.startsWith(ACCESS_TOKEN_PREFIX) ? secret : undefined;
}

/** Whether `token` may do `capability` on `target`: one of its scopes names that target or `*`. */
export function tokenAllows(token: TokenCaller, capability: string, target: string): boolean {
  return scopesOf(token.scope).some((scope) => scope === `${capability}:${target}` || scope === `${capability}:*`);
}

type TokenRow = Awaited<ReturnType<typeof findAccessTokens>>[number];

function tokenOf(row: TokenRow): AccessToken {
  return {
    id: row.id,
    label: row.label,
    scope: row.scope,
    expiresAt: isoOfMs(row.expires_ms),
    createdBy: row.created_by,
    createdAt: isoOfMs(row.created_ms),
    revokedAt: isoOfMs(row.revoked_ms),
    lastUsedAt: isoOfMs(row.last_used_ms),
  };
}

/** The tokens of a kind, newest first. */
export async function listAccessTokens(db: Db, kind: TokenKind): Promise<AccessToken[]> {
  return (await findAccessTokens(db.kysely)).filter((row) => kindOf(row.scope) === kind).map(tokenOf);
}

/** A new token; it works until the end (UTC) of the day `expiresOn`. Never its secret in the audit entry. */
export async function createAccessToken(db: Db, input: TokenCreatePayload, by: AuditBy): Promise<CreatedToken> {
  const now = Date.now();
  const expiresMs = Date.parse(`${input.expiresOn}T00:00:00Z`) + DAY_MS;
  if (expiresMs <= now) throw new BadRequest('expiresOn', 'The expiry must be today or later.');
  if (input.expiresOn > latestTokenExpiry(now))
    throw new BadRequest('expiresOn', `The expiry must be at most ${MAX_TOKEN_YEARS} years from today.`);
  const secret = ACCESS_TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
  const row = await db.transaction(async (trx) => {
    const row = await insertAccessToken(trx, {
      label: input.label,
      token_hash: hashSecret(secret),
      scope: input.scope,
      expires_ms: expiresMs,
      created_by: actorLabel(by),
      created_ms: now,
      revoked_ms: null,
      last_used_ms: null,
    });
    await recordAudit(trx, db, by, {
      action: 'token.created',
      outcome: 'success',
      target: { kind: 'token', id: row.id, label: row.label },
      details: { after: { scope: row.scope, expires_at: new Date(expiresMs).toISOString() } },
    });
    return row;
  });
  return { token: tokenOf(row), secret };
}

/** How a refused call's audit entry names the token its path names: by its label (targetOfPathParam). */
export async function tokenLabel(id: number, db: Db): Promise<string | undefined> {
  return (await findAccessTokenById(db.kysely, id))?.label;
}

/** Revokes a token of `kind` (a deploy token is not revoked where API keys are managed, nor the reverse). */
export async function revokeAccessToken(db: Db, kind: TokenKind, id: number, by: AuditBy): Promise<AccessToken> {
  const found = id <= MAX_SERIAL_ID && (await findAccessTokenById(db.kysely, id));
  if (!found || kindOf(found.scope) !== kind)
    throw new NotFound(kind === 'deploy' ? 'No token has that id.' : 'No key has that id.');
  await db.transaction(async (trx) => {
    if (!(await revokeAccessTokenById(trx, id, Date.now()))) return;
    await recordAudit(trx, db, by, {
      action: 'token.revoked',
      outcome: 'success',
      target: { kind: 'token', id, label: found.label },
      details: { before: { scope: found.scope, expires_at: isoOfMs(found.expires_ms) } },
    });
  });
  return tokenOf((await findAccessTokenById(db.kysely, id))!);
}

/** Calls a token may make in a window; a window is a minute, counted on the database (every instance's calls). */
export const RATE_WINDOW_MS = 60_000;

/** What a secret authenticates: its token, or why not (unknown, or a known token no longer usable). */
export type TokenCheck =
  | { ok: true; token: TokenCaller }
  | { ok: false; token: TokenCaller | null; reason: 'unknown' | 'revoked' | 'expired' }
  | { ok: false; token: TokenCaller; reason: 'rate'; retryAfterSeconds: number; firstRefusal: boolean };

/**
 * The token behind `secret`, its use recorded (last used, and its call counted in the current
 * window when `ratePerMinute` is given: the (ratePerMinute + 1)th call of a window is refused until
 * the window ends, on every instance, as the count is one row updated in place).
 */
export async function checkAccessToken(db: Db, secret: string, ratePerMinute?: number): Promise<TokenCheck> {
  const now = Date.now();
  const row = await findAccessTokenByHash(db.kysely, hashSecret(secret));
  if (!row) return { ok: false, token: null, reason: 'unknown' };
  const token = { id: row.id, label: row.label, scope: row.scope };
  if (row.revoked_ms !== null) return { ok: false, token, reason: 'revoked' };
  if (Number(row.expires_ms) <= now) return { ok: false, token, reason: 'expired' };
  const window = await countTokenCall(db.kysely, row.id, now, RATE_WINDOW_MS);
  if (ratePerMinute !== undefined && window.calls > ratePerMinute) {
    const retryAfterSeconds = Math.max(1, Math.ceil((window.startMs + RATE_WINDOW_MS - now) / 1000));
    return { ok: false, token, reason: 'rate', retryAfterSeconds, firstRefusal: window.calls === ratePerMinute + 1 };
  }
  return { ok: true, token };
}
