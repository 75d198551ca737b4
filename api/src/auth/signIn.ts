// The credential check of both sign-ins (the console's user/login/ and the app's app/login/):
// the throttling of failed attempts, the password, and the account's active flag.
import type { Db, UsersTable } from '../db/schema';
import { HttpError, bodyOf, text } from '../http';
import { clearFailures, recordFailure, refuseWhenThrottled, type Attempt } from './loginThrottle';
import { dummyPasswordHash, verifyPassword } from './passwords';

/** The longest username user/create/ accepts. */
export const MAX_USERNAME_LENGTH = 150;

/** The console's login screen reads `res`; everything else reads `detail`. */
export const loginError = (statusCode: number, message: string, extra: Record<string, unknown> = {}) =>
  new HttpError(statusCode, { res: message, detail: message, ...extra });

type User = Omit<UsersTable, 'id' | 'is_active'> & { id: number; is_active: number };

/** The active user whose username and password the body holds; else a login error. */
export async function signInUser(db: Db, requestBody: unknown, clientAddress: string): Promise<User> {
  const body = bodyOf(requestBody);
  const username = text(body.username);
  const password = typeof body.password === 'string' ? body.password : '';
  if (!username) throw loginError(400, 'Username is required.', { field: 'username' });
  if (!password) throw loginError(400, 'Password is required.', { field: 'password' });

  // Usernames are at most MAX_USERNAME_LENGTH long: cutting longer ones bounds what failures can
  // make the server store.
  const attempt: Attempt = { address: clientAddress, username: username.slice(0, MAX_USERNAME_LENGTH) };
  await refuseWhenThrottled(db, attempt);

  const user = await db.kysely.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  const valid = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
  if (!user || !valid) {
    await recordFailure(db, attempt);
    // Counting this failure and those of attempts checked alongside it.
    await refuseWhenThrottled(db, attempt, { ownFailure: true });
    throw loginError(401, 'Invalid username or password');
  }
  // Attempts checked alongside this one may have reached a limit meanwhile.
  await refuseWhenThrottled(db, attempt);
  await clearFailures(db, attempt);
  if (user.is_active !== 1) throw loginError(403, 'Account is deactivated');
  return user;
}
