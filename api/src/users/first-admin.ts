// First start: the super_admin named by VERITAS_ADMIN_USERNAME, so there is always a way in.
import crypto from 'node:crypto';
import { hashPassword } from '../auth/password-hashing';
import type { Db } from '../db/schema';
import { findUserNamedAlike, insertUser } from './repository';

/** Creates it unless a user has that name in any case: no two users differ by case alone (accounts.ts). */
export async function ensureAdmin(db: Db, username: string, password: string | undefined): Promise<void> {
  if (await findUserNamedAlike(db.kysely, username)) return;
  const chosen = password ?? crypto.randomBytes(12).toString('base64url');
  await insertUser(db.kysely, {
    username,
    email: `${username}@veritas.local`,
    password_hash: await hashPassword(chosen),
    role: 'super_admin',
    group_id: null,
  });
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
