// Queries of the users table. Each takes the database or a transaction first, so a caller
// composes them inside one transaction when it must.
import { sql, type Kysely } from 'kysely';
import type { Role } from '@veritas/shared/domain';
import { nowIso, type Database, type Flag } from '../db/schema';

export interface NewUser {
  username: string;
  email: string;
  password_hash: string;
  role: Role;
  group_id: number | null;
}

/**
 * A user whose name is `username` ignoring case. New usernames are ASCII (shared/src/api/users.ts),
 * which lower() folds alike on both engines.
 */
export async function findUserNamedAlike(kysely: Kysely<Database>, username: string) {
  return kysely
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

export async function findUserById(kysely: Kysely<Database>, id: number) {
  return kysely.selectFrom('users').select(['id', 'username', 'role']).where('id', '=', id).executeTakeFirst();
}

/** Every user, or those of `roles`, with the name of their group, in the order they were created. */
export async function findUsersWithGroup(kysely: Kysely<Database>, roles?: readonly Role[]) {
  return kysely
    .selectFrom('users as u')
    .leftJoin('groups as g', 'g.id', 'u.group_id')
    .select(['u.id', 'u.username', 'u.role', 'u.is_active', 'g.name as group_name'])
    .$if(roles !== undefined, (query) => query.where('u.role', 'in', roles!))
    .orderBy('u.id')
    .execute();
}

export async function insertUser(kysely: Kysely<Database>, user: NewUser): Promise<number> {
  const row = await kysely
    .insertInto('users')
    .values({ ...user, created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteUserById(kysely: Kysely<Database>, id: number): Promise<void> {
  await kysely.deleteFrom('users').where('id', '=', id).execute();
}

/** Sets the user's active flag; answers whether it changed. */
export async function updateUserActive(kysely: Kysely<Database>, id: number, active: Flag): Promise<boolean> {
  const { numUpdatedRows } = await kysely
    .updateTable('users')
    .set({ is_active: active })
    .where('id', '=', id)
    .where('is_active', '<>', active)
    .executeTakeFirst();
  return Number(numUpdatedRows) > 0;
}

export async function findPasswordHash(kysely: Kysely<Database>, id: number): Promise<string> {
  const row = await kysely.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow();
  return row.password_hash;
}

export async function updatePasswordHash(kysely: Kysely<Database>, id: number, hash: string): Promise<void> {
  await kysely.updateTable('users').set({ password_hash: hash }).where('id', '=', id).execute();
}
