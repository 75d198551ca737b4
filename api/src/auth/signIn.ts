// The credential check of both sign-ins (the console's user/login/ and the app's app/login/):
// the password, the lock after repeated failures, and the account's active flag.
import type { Db, UsersTable } from '../db/schema';
import { nowIso } from '../db/schema';
import { HttpError, bodyOf, text } from '../http';
import { dummyPasswordHash, verifyPassword } from './passwords';

/** Failed logins of one username within the window lock it until they age out. */
const MAX_FAILED_LOGINS = 10;
const FAILED_LOGIN_WINDOW_MS = 15 * 60 * 1000;

/** The console's login screen reads `res`; everything else reads `detail`. */
export const loginError = (statusCode: number, message: string, extra: Record<string, unknown> = {}) =>
  new HttpError(statusCode, { res: message, detail: message, ...extra });

type User = Omit<UsersTable, 'id' | 'is_active'> & { id: number; is_active: number };

/** The active user whose username and password the body holds; else a login error. */
export async function signInUser(db: Db, requestBody: unknown): Promise<User> {
  const body = bodyOf(requestBody);
  const username = text(body.username);
  const password = typeof body.password === 'string' ? body.password : '';
  if (!username) throw loginError(400, 'Username is required.', { field: 'username' });
  if (!password) throw loginError(400, 'Password is required.', { field: 'password' });

  const since = new Date(Date.now() - FAILED_LOGIN_WINDOW_MS).toISOString();
  const failures = await db.kysely
    .selectFrom('login_failures')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('username', '=', username)
    .where('failed_at', '>', since)
    .executeTakeFirstOrThrow();
  if (Number(failures.count) >= MAX_FAILED_LOGINS) {
    throw loginError(429, 'Too many failed login attempts for this account. Try again in 15 minutes.');
  }

  const user = await db.kysely.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  const valid = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
  if (!user || !valid) {
    // Failures older than the window no longer count; dropping them bounds the table.
    await db.kysely.deleteFrom('login_failures').where('failed_at', '<=', since).execute();
    await db.kysely.insertInto('login_failures').values({ username, failed_at: nowIso() }).execute();
    throw loginError(401, 'Invalid username or password');
  }
  await db.kysely.deleteFrom('login_failures').where('username', '=', username).execute();
  if (user.is_active !== 1) throw loginError(403, 'Account is deactivated');
  return user;
}
