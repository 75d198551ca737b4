// First start: the super_admin named by VERITAS_ADMIN_USERNAME, so there is always a way in.
import crypto from 'node:crypto';
import { hashPassword } from '../auth/password-hashing';
import type { Db } from '../db/schema';
import { nowIso } from '../db/schema';

export async function ensureAdmin(db: Db, username: string, password: string | undefined): Promise<void> {
  const existing = await db.kysely.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  if (existing) return;
  const chosen = password ?? crypto.randomBytes(12).toString('base64url');
  await db.kysely
    .insertInto('users')
    .values({
      username,
      email: `${username}@veritas.local`,
      password_hash: await hashPassword(chosen),
      role: 'super_admin',
      group_id: null,
      created_at: nowIso(),
    })
    .execute();
  if (password === undefined) {
    const line = '='.repeat(64);
    console.log(
      [
        line,
        ' Veritas: super_admin account created',
        `   username: ${username}`,
        `   password: ${chosen}`,
        ' It is shown only now. Set VERITAS_ADMIN_PASSWORD to choose it.',
        line,
      ].join('\n'),
    );
  }
}
