// Queries of access_tokens (deploy tokens and API keys).
import { sql, type Insertable, type Kysely } from 'kysely';
import type { AccessTokensTable, Database } from '../db/schema';

const COLUMNS = [
  'id',
  'label',
  'scope',
  'expires_ms',
  'created_by',
  'created_ms',
  'revoked_ms',
  'last_used_ms',
] as const;

export async function insertAccessToken(kysely: Kysely<Database>, token: Insertable<AccessTokensTable>) {
  return kysely.insertInto('access_tokens').values(token).returning(COLUMNS).executeTakeFirstOrThrow();
}

/** Every token, newest first. */
export async function findAccessTokens(kysely: Kysely<Database>) {
  return kysely.selectFrom('access_tokens').select(COLUMNS).orderBy('id', 'desc').execute();
}

export async function findAccessTokenById(kysely: Kysely<Database>, id: number) {
  return kysely.selectFrom('access_tokens').select(COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** The token of that hash, whatever its state. */
export async function findAccessTokenByHash(kysely: Kysely<Database>, tokenHash: string) {
  return kysely
    .selectFrom('access_tokens')
    .select(['id', 'label', 'scope', 'expires_ms', 'revoked_ms'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Records a call of the token at `nowMs`: its last use, and the call counted in its window (a new
 * window when the last began `windowMs` or more ago). One statement, so calls on two instances at
 * once are both counted. Answers the window's start and its calls, this one included.
 */
export async function countTokenCall(kysely: Kysely<Database>, id: number, nowMs: number, windowMs: number) {
  const windowOver = sql<boolean>`window_start_ms is null or window_start_ms <= ${nowMs - windowMs}`;
  const row = await kysely
    .updateTable('access_tokens')
    .set({
      last_used_ms: nowMs,
      // Every expression reads the row as it was before this update (both engines).
      window_calls: sql`case when ${windowOver} then 1 else window_calls + 1 end`,
      window_start_ms: sql`case when ${windowOver} then ${nowMs} else window_start_ms end`,
    })
    .where('id', '=', id)
    .returning(['window_start_ms', 'window_calls'])
    .executeTakeFirstOrThrow();
  return { startMs: Number(row.window_start_ms), calls: Number(row.window_calls) };
}

/** Revokes the token unless it already is; false when it was revoked already. */
export async function revokeAccessTokenById(kysely: Kysely<Database>, id: number, nowMs: number): Promise<boolean> {
  const result = await kysely
    .updateTable('access_tokens')
    .set({ revoked_ms: nowMs })
    .where('id', '=', id)
    .where('revoked_ms', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
