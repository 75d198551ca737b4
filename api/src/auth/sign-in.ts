// The credential check of both sign-ins (the console's user/login/ and the app's app/login/):
// the throttling of failed attempts, the password, and the account's active flag. Its errors
// carry `res` through the routes' error field (the console's login screen reads it).
import type { Static } from '@sinclair/typebox';
import { MAX_USERNAME_LENGTH, type Credentials, type Role } from '@veritas/shared/domain';
import { recordAudit, recordAuditAlone, userBy, type AuditBy } from '../audit/trail';
import type { Db, UsersTable } from '../db/schema';
import { DomainError, Forbidden, Unauthorized } from '../http-errors';
import { canUseWeb } from './rights';
import { clearFailures, recordFailure, refuseWhenThrottled, type Attempt } from './login-throttle';
import { dummyPasswordHash, verifyPassword } from './password-hashing';
import { startSession, type SignInChannel, type Tokens } from './sessions';

type User = Omit<UsersTable, 'id' | 'is_active'> & { id: number; is_active: number };

/**
 * The active user with these credentials; else a refusal (401, 403, or 429 while throttled). A
 * failure is recorded in the audit trail with its count; refusals are recorded by the route
 * (audit/refusals.ts), and a success with the session it starts.
 */
export async function signInUser(
  db: Db,
  { username, password }: Static<typeof Credentials>,
  clientAddress: string,
  channel: SignInChannel,
): Promise<User> {
  // Usernames are at most MAX_USERNAME_LENGTH long: cutting longer ones bounds what failures can
  // make the server store.
  const attempt: Attempt = { address: clientAddress, username: username.slice(0, MAX_USERNAME_LENGTH) };
  await refuseWhenThrottled(db, attempt);

  const user = await db.kysely.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  const valid = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
  if (!user || !valid) {
    const tried: AuditBy = {
      actor: { kind: 'anonymous', id: null, name: attempt.username, role: null },
      address: clientAddress,
    };
    await db.transaction(async (trx) => {
      await recordFailure(trx, attempt);
      await recordAudit(trx, db, tried, {
        action: 'session.sign-in',
        outcome: 'failure',
        target: { kind: 'user', id: user?.id ?? null, label: attempt.username },
        details: { channel, reason: user ? 'wrong password' : 'unknown username' },
      });
    });
    // Counting this failure and those of attempts checked alongside it. Its 429 is this attempt's
    // answer; the failure above is its one entry.
    await refuseWhenThrottled(db, attempt, { ownFailure: true }).catch((error: unknown) => {
      if (error instanceof DomainError) error.audited = true;
      throw error;
    });
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
  const user = await signInUser(db, credentials, clientAddress, 'console');
  if (canUseWeb(user.role)) return { role: user.role, tokens: await startSession(db, user, clientAddress) };
  // A role without a console signs in (the spec's answer tells the app to take over) without a session.
  await recordAuditAlone(db, userBy(user, clientAddress), {
    action: 'session.sign-in',
    outcome: 'success',
    target: { kind: 'user', id: user.id, label: user.username },
    details: { channel: 'console', session: false },
  });
  return { role: user.role, tokens: null };
}
