// Database-backed sessions. Cookies carry random tokens; the database keeps only their hashes.
// Every request checks the session, the token and the user's is_active flag, so logout,
// deactivation and family revocation take effect at once on every server instance.
import crypto from 'node:crypto';
import type { Organization, Role } from '@veritas/shared/domain';
import type { Kysely } from 'kysely';
import { recordAudit, userBy, type AuditBy } from '../audit/trail';
import type { Database, Db } from '../db/schema';
import { nowIso } from '../db/schema';

export const ACCESS_TTL_MS = 15 * 60 * 1000;
export const REFRESH_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The mobile app signs in once per shift. */
export const APP_TTL_MS = 12 * 60 * 60 * 1000;

export interface Tokens {
  access: string;
  refresh: string;
  /** Whose session it is: the viewer cookie of /remotes.json names them (cookies.ts). */
  username: string;
}

export interface SessionUser {
  id: number;
  username: string;
  role: Role;
  /** The user's group: the hub or return centre it works for, if any. */
  groupCode: string | null;
  organization: Organization | null;
  sessionId: string;
  /** When the token it was authenticated by expires (ISO 8601): an event stream ends then. */
  expiresAt: string;
}

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
const newToken = () => crypto.randomBytes(32).toString('base64url');
const isoIn = (ms: number) => new Date(Date.now() + ms).toISOString();

async function issueTokens(kysely: Kysely<Database>, sessionId: string, username: string): Promise<Tokens> {
  const tokens = { access: newToken(), refresh: newToken(), username };
  await kysely
    .insertInto('auth_tokens')
    .values([
      {
        token_hash: hashToken(tokens.access),
        kind: 'access',
        session_id: sessionId,
        expires_at: isoIn(ACCESS_TTL_MS),
        used_at: null,
      },
      {
        token_hash: hashToken(tokens.refresh),
        kind: 'refresh',
        session_id: sessionId,
        expires_at: isoIn(REFRESH_TTL_MS),
        used_at: null,
      },
    ])
    .execute();
  return tokens;
}

/** Who signs in: the account whose credentials were checked. */
export interface AccountUser {
  id: number;
  username: string;
  role: Role;
}

/** Which sign-in: the console's (user/login/) or the mobile app's (app/login/). */
export type SignInChannel = 'console' | 'app';

/** The audit entry of a sign-in or sign-out of `user`'s own account. */
const sessionEntry = (action: 'session.sign-in' | 'session.sign-out', user: AccountUser, channel: SignInChannel) =>
  ({
    action,
    outcome: 'success',
    target: { kind: 'user', id: user.id, label: user.username },
    details: { channel },
  }) as const;

/** A console session for `user`, signed in from `address`: its tokens, and the sign-in's audit entry. */
export async function startSession(db: Db, user: AccountUser, address: string): Promise<Tokens> {
  await removeExpired(db);
  const sessionId = crypto.randomUUID();
  // One transaction, so a concurrent clean-up never sees this session without its tokens.
  return db.transaction(async (trx) => {
    await trx
      .insertInto('sessions')
      .values({ id: sessionId, user_id: user.id, created_at: nowIso(), revoked_at: null })
      .execute();
    const tokens = await issueTokens(trx, sessionId, user.username);
    await recordAudit(trx, db, userBy(user, address), sessionEntry('session.sign-in', user, 'console'));
    return tokens;
  });
}

/**
 * A session of the mobile app: one bearer token, no refresh (the app signs in again). It lives in
 * the same sessions, so logout, deactivation and revocation end it like a console session.
 */
export async function startAppSession(db: Db, user: AccountUser, address: string): Promise<string> {
  await removeExpired(db);
  const sessionId = crypto.randomUUID();
  const token = newToken();
  await db.transaction(async (trx) => {
    await trx
      .insertInto('sessions')
      .values({ id: sessionId, user_id: user.id, created_at: nowIso(), revoked_at: null })
      .execute();
    await trx
      .insertInto('auth_tokens')
      .values({
        token_hash: hashToken(token),
        kind: 'app',
        session_id: sessionId,
        expires_at: isoIn(APP_TTL_MS),
        used_at: null,
      })
      .execute();
    await recordAudit(trx, db, userBy(user, address), sessionEntry('session.sign-in', user, 'app'));
  });
  return token;
}

/** The active user behind a valid token of that kind (the console's access cookie, or the app's bearer token), or null. */
export async function authenticate(
  db: Db,
  accessToken: string | undefined,
  kind: 'access' | 'app' = 'access',
): Promise<SessionUser | null> {
  if (!accessToken) return null;
  const row = await db.kysely
    .selectFrom('auth_tokens as t')
    .innerJoin('sessions as s', 's.id', 't.session_id')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('groups as g', 'g.id', 'u.group_id')
    .select(['u.id', 'u.username', 'u.role', 'g.code', 'g.organization', 's.id as session_id', 't.expires_at'])
    .where('t.token_hash', '=', hashToken(accessToken))
    .where('t.kind', '=', kind)
    .where('t.expires_at', '>', nowIso())
    .where('s.revoked_at', 'is', null)
    .where('u.is_active', '=', 1)
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        username: row.username,
        role: row.role,
        groupCode: row.code ?? null,
        organization: row.organization ?? null,
        sessionId: row.session_id,
        expiresAt: row.expires_at,
      }
    : null;
}

/**
 * Exchanges a refresh token for a new pair. A token that was already exchanged means it
 * leaked (or was replayed): the whole session family is revoked.
 */
export async function rotateRefreshToken(
  db: Db,
  refreshToken: string | undefined,
  address: string,
): Promise<Tokens | null> {
  if (!refreshToken) return null;
  const tokenHash = hashToken(refreshToken);
  const row = await db.kysely
    .selectFrom('auth_tokens as t')
    .innerJoin('sessions as s', 's.id', 't.session_id')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      't.session_id',
      't.expires_at',
      't.used_at',
      's.revoked_at',
      'u.is_active',
      'u.id',
      'u.username',
      'u.role',
    ])
    .where('t.token_hash', '=', tokenHash)
    .where('t.kind', '=', 'refresh')
    .executeTakeFirst();
  if (!row || row.revoked_at !== null || row.is_active !== 1) return null;
  if (row.used_at !== null) {
    await revokeFamily(db, row.session_id, row, address);
    return null;
  }
  if (row.expires_at <= nowIso()) return null;
  // Conditional update: of two concurrent exchanges of one token, only one wins.
  const claimed = await db.kysely
    .updateTable('auth_tokens')
    .set({ used_at: nowIso() })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    await revokeFamily(db, row.session_id, row, address);
    return null;
  }
  return issueTokens(db.kysely, row.session_id, row.username);
}

/**
 * A refresh token presented a second time: it leaked or was replayed, so the session ends, whoever
 * holds its tokens now. The audit entry names the account; whoever presented the token is not known.
 */
async function revokeFamily(db: Db, sessionId: string, user: AccountUser, address: string): Promise<void> {
  const presenter: AuditBy = { actor: { kind: 'anonymous', id: null, name: user.username, role: null }, address };
  await db.transaction(async (trx) => {
    await revokeSession(trx, sessionId);
    await recordAudit(trx, db, presenter, {
      action: 'session.family-revoked',
      outcome: 'success',
      target: { kind: 'user', id: user.id, label: user.username },
      details: { reason: 'A refresh token was used a second time.' },
    });
  });
}

/** The session a token (access or refresh) belongs to, whatever its state, with its user. */
async function sessionOfToken(db: Db, token: string | undefined) {
  if (!token) return undefined;
  return db.kysely
    .selectFrom('auth_tokens as t')
    .innerJoin('sessions as s', 's.id', 't.session_id')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['t.session_id', 'u.id', 'u.username', 'u.role'])
    .where('t.token_hash', '=', hashToken(token))
    .executeTakeFirst();
}

/** Ends the session; `kysely` may be a transaction's. */
async function revokeSession(kysely: Kysely<Database>, sessionId: string): Promise<void> {
  await kysely
    .updateTable('sessions')
    .set({ revoked_at: nowIso() })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Signs `user` out of one session (`channel`'s), with the audit entry. */
export async function signOut(
  db: Db,
  sessionId: string,
  user: AccountUser,
  address: string,
  channel: SignInChannel,
): Promise<void> {
  await db.transaction(async (trx) => {
    await revokeSession(trx, sessionId);
    await recordAudit(trx, db, userBy(user, address), sessionEntry('session.sign-out', user, channel));
  });
}

/** user/logout/: ends the session of the access token, else of the refresh token; either may be absent or stale. */
export async function endSessionOfTokens(
  db: Db,
  accessToken: string | undefined,
  refreshToken: string | undefined,
  address: string,
): Promise<void> {
  const session = (await sessionOfToken(db, accessToken)) ?? (await sessionOfToken(db, refreshToken));
  if (session) await signOut(db, session.session_id, session, address, 'console');
}

/** Ends every session of the user (console and app alike), but `keep` when given. `db` may be a transaction's. */
export async function revokeUserSessions(db: Pick<Db, 'kysely'>, userId: number, keep?: string): Promise<void> {
  let query = db.kysely
    .updateTable('sessions')
    .set({ revoked_at: nowIso() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keep !== undefined) query = query.where('id', '!=', keep);
  await query.execute();
}

/** Drops expired tokens and the sessions left without any. */
async function removeExpired(db: Db): Promise<void> {
  await db.kysely.deleteFrom('auth_tokens').where('expires_at', '<', nowIso()).execute();
  await db.kysely
    .deleteFrom('sessions')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('auth_tokens')
            .select('auth_tokens.session_id')
            .whereRef('auth_tokens.session_id', '=', 'sessions.id'),
        ),
      ),
    )
    .execute();
}
