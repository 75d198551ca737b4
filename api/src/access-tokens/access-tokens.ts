// Deploy tokens (docs/sessions.md#deploy-tokens): what a pipeline authenticates with to publish and
// roll out a remote, as `Authorization: Bearer vrt_…`. A token's `scope` is `<capability>:<target>`
// (`deploy:devices`, `deploy:*`), so later integrations add capabilities without a new table. The
// secret is shown once, when created; the database keeps its SHA-256 only.
import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AccessToken, CreatedToken, TokenCreatePayload } from '@veritas/shared/domain';
import { actorLabel, recordAudit, type AuditBy } from '../audit/trail';
import { MAX_SERIAL_ID, type Db } from '../db/schema';
import { BadRequest, NotFound } from '../http-errors';
import {
  findAccessTokenById,
  findAccessTokens,
  findUsableAccessToken,
  insertAccessToken,
  markAccessTokenUsed,
  revokeAccessTokenById,
} from './repository';

/** Every deploy token's secret starts so: a token is told from other bearer tokens (the mobile app's) by it. */
export const DEPLOY_TOKEN_PREFIX = 'vrt_';

/** The caller behind a deploy token. */
export interface DeployToken {
  id: number;
  label: string;
  scope: string;
}

/**
 * SHA-256, not a slow password hash: the secret is 32 random bytes, which no guessing can reach,
 * so a fast hash loses nothing and every call can check its token in one indexed query.
 */
const hashSecret = (secret: string) => crypto.createHash('sha256').update(secret).digest('hex');

const DAY_MS = 24 * 60 * 60 * 1000;

/** The secret of `Authorization: Bearer vrt_…`, or undefined when the request carries none. */
export function deployTokenOf(request: FastifyRequest): string | undefined {
  const secret = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  return secret?.startsWith(DEPLOY_TOKEN_PREFIX) ? secret : undefined;
}

/** Whether `token` may do `capability` on `target`: its scope names that target or `*`. */
export function tokenAllows(token: DeployToken, capability: string, target: string): boolean {
  return token.scope === `${capability}:${target}` || token.scope === `${capability}:*`;
}

type TokenRow = Awaited<ReturnType<typeof findAccessTokens>>[number];

const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

function tokenOf(row: TokenRow): AccessToken {
  return {
    id: row.id,
    label: row.label,
    scope: row.scope,
    expiresAt: iso(row.expires_ms)!,
    createdBy: row.created_by,
    createdAt: iso(row.created_ms)!,
    revokedAt: iso(row.revoked_ms),
    lastUsedAt: iso(row.last_used_ms),
  };
}

export async function listAccessTokens(db: Db): Promise<AccessToken[]> {
  return (await findAccessTokens(db.kysely)).map(tokenOf);
}

/** A new token; it works until the end (UTC) of the day `expiresOn`. Never its secret in the audit entry. */
export async function createAccessToken(db: Db, input: TokenCreatePayload, by: AuditBy): Promise<CreatedToken> {
  const now = Date.now();
  const expiresMs = Date.parse(`${input.expiresOn}T00:00:00Z`) + DAY_MS;
  if (expiresMs <= now) throw new BadRequest('expiresOn', 'The expiry must be today or later.');
  const secret = DEPLOY_TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
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

export async function revokeAccessToken(db: Db, id: number, by: AuditBy): Promise<AccessToken> {
  const found = id <= MAX_SERIAL_ID && (await findAccessTokenById(db.kysely, id));
  if (!found) throw new NotFound('No token has that id.');
  await db.transaction(async (trx) => {
    if (!(await revokeAccessTokenById(trx, id, Date.now()))) return;
    await recordAudit(trx, db, by, {
      action: 'token.revoked',
      outcome: 'success',
      target: { kind: 'token', id, label: found.label },
      details: { scope: found.scope },
    });
  });
  return tokenOf((await findAccessTokenById(db.kysely, id))!);
}

/** The token behind `secret` when it is neither expired nor revoked (its use is recorded), else null. */
export async function authenticateAccessToken(db: Db, secret: string): Promise<DeployToken | null> {
  const now = Date.now();
  const token = await findUsableAccessToken(db.kysely, hashSecret(secret), now);
  if (token) await markAccessTokenUsed(db.kysely, token.id, now);
  return token ?? null;
}
