// The credential check of both sign-ins (the console's user/login/ and the app's app/login/):
// the throttling of failed attempts, the password, and the account's active flag. Its errors
// carry `res` through the routes' error field (the console's login screen reads it).
import type { Static } from '@sinclair/typebox';
import { MAX_USERNAME_LENGTH, type Credentials, type Role } from '@veritas/shared/domain';
import type { Db, UsersTable } from '../db/schema';
import { Forbidden, Unauthorized } from '../errors';
import { canUseWeb } from '../roles';
import { clearFailures, recordFailure, refuseWhenThrottled, type Attempt } from './login-throttle';
import { dummyPasswordHash, verifyPassword } from './passwords';
import { startSession, type Tokens } from './sessions';

type User = Omit<UsersTable, 'id' | 'is_active'> & { id: number; is_active: number };

/** The active user with these credentials; else a refusal (401, 403, or 429 while throttled). */
export async function signInUser(
  db: Db,
  { username, password }: Static<typeof Credentials>,
  clientAddress: string,
): Promise<User> {
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
    throw new Unauthorized('Invalid username or password');
  }
  // Attempts checked alongside this one may have reached a limit meanwhile.
  await refuseWhenThrottled(db, attempt);
  await clearFailures(db, attempt);
  if (user.is_active !== 1) throw new Forbidden('Account is deactivated');
  return user;
}

/** user/login/: the role of the credentials' user, with new session tokens unless the role has no console. */
export async function signInToConsole(
  db: Db,
  credentials: Static<typeof Credentials>,
  clientAddress: string,
): Promise<{ role: Role; tokens: Tokens | null }> {
  const user = await signInUser(db, credentials, clientAddress);
  return { role: user.role, tokens: canUseWeb(user.role) ? await startSession(db, user) : null };
}
