// The credential check of both sign-ins (the console's user/login/ and the app's app/login/):
// the password, the lock after repeated failures, and the account's active flag. The lock also
// counts wrong current passwords given to user/change_password/, so that call is no way around it.
import type { Db, UsersTable } from '../db/schema';
import { nowIso } from '../db/schema';
import { HttpError, bodyOf, text } from '../http';
import { dummyPasswordHash, verifyPassword } from './passwords';

/** Wrong passwords given for one username within the window lock it until they age out. */
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

  if (await isLockedOut(db, username)) {
    throw loginError(429, 'Too many failed login attempts for this account. Try again in 15 minutes.');
  }

  const user = await db.kysely.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  const valid = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
  if (!user || !valid) {
    await recordFailedPassword(db, username);
    throw loginError(401, 'Invalid username or password');
  }
  await clearFailedPasswords(db, username);
  if (user.is_active !== 1) throw loginError(403, 'Account is deactivated');
  return user;
}

const windowStart = () => new Date(Date.now() - FAILED_LOGIN_WINDOW_MS).toISOString();

/** Whether `username` had too many wrong passwords within the window to be checked again now. */
export async function isLockedOut(db: Db, username: string): Promise<boolean> {
  const failures = await db.kysely
    .selectFrom('login_failures')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('username', '=', username)
    .where('failed_at', '>', windowStart())
    .executeTakeFirstOrThrow();
  return Number(failures.count) >= MAX_FAILED_LOGINS;
}

export async function recordFailedPassword(db: Db, username: string): Promise<void> {
  // Failures older than the window no longer count; dropping them bounds the table.
  await db.kysely.deleteFrom('login_failures').where('failed_at', '<=', windowStart()).execute();
  await db.kysely.insertInto('login_failures').values({ username, failed_at: nowIso() }).execute();
}

export async function clearFailedPasswords(db: Db, username: string): Promise<void> {
  await db.kysely.deleteFrom('login_failures').where('username', '=', username).execute();
}
