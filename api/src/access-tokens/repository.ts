// Queries of access_tokens (deploy tokens).
import type { Insertable, Kysely } from 'kysely';
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

/** The token of that hash if it is neither revoked nor expired at `nowMs`. */
export async function findUsableAccessToken(kysely: Kysely<Database>, tokenHash: string, nowMs: number) {
  return kysely
    .selectFrom('access_tokens')
    .select(['id', 'label', 'scope'])
    .where('token_hash', '=', tokenHash)
    .where('revoked_ms', 'is', null)
    .where('expires_ms', '>', nowMs)
    .executeTakeFirst();
}

export async function markAccessTokenUsed(kysely: Kysely<Database>, id: number, nowMs: number): Promise<void> {
  await kysely.updateTable('access_tokens').set({ last_used_ms: nowMs }).where('id', '=', id).execute();
}

/** Revokes the token unless it already is. */
/** Answers false when the token was revoked already. */
export async function revokeAccessTokenById(kysely: Kysely<Database>, id: number, nowMs: number): Promise<boolean> {
  const result = await kysely
    .updateTable('access_tokens')
    .set({ revoked_ms: nowMs })
    .where('id', '=', id)
    .where('revoked_ms', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
