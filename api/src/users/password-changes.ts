// Passwords users can change: one's own (change), and another's by whoever may (de)activate them
// (reset). Both apply the password rule of @veritas/shared and end sessions at once, since a
// password that changed may have leaked.
import { passwordProblem } from '@veritas/shared/domain';
import { clearFailures, clearUserFailures, recordFailure, refuseWhenThrottled } from '../auth/login-throttle';
import { hashPassword, verifyPassword } from '../auth/password-hashing';
import { revokeUserSessions, type SessionUser } from '../auth/sessions';
import { recordAudit, userBy, type AuditBy } from '../audit/trail';
import type { Db } from '../db/schema';
import { BadRequest } from '../http-errors';
import { findPasswordHash, updatePasswordHash } from './repository';
import { targetOf } from './user-target';

/** The rule for `username`, which depends on the user: checked after the schema. */
function checkRule(password: string, username: string): void {
  const problem = passwordProblem(password, username);
  if (problem) throw new BadRequest('new_password', problem);
}

/** Stores the new password and ends the user's sessions but `keep`, with its audit entry, in one transaction. */
async function setPassword(
  db: Db,
  user: { id: number; username: string },
  password: string,
  audit: { by: AuditBy; action: 'password.changed' | 'password.reset' },
  keep?: string,
): Promise<void> {
  const hash = await hashPassword(password);
  await db.transaction(async (kysely) => {
    await updatePasswordHash(kysely, user.id, hash);
    await revokeUserSessions({ kysely }, user.id, keep);
    await recordAudit(kysely, db, audit.by, {
      action: audit.action,
      outcome: 'success',
      target: { kind: 'user', id: user.id, label: user.username },
      details: { sessions_ended: keep === undefined ? 'all' : 'all but the current one' },
    });
  });
}

/**
 * The user's own change, from `address`. The session making it stays signed in; every other one,
 * app tokens included, ends.
 */
export async function changePassword(
  db: Db,
  user: SessionUser,
  address: string,
  current: string,
  password: string,
): Promise<void> {
  checkRule(password, user.username);
  // Wrong current passwords are failed sign-ins of the account from this address (sign-in
  // throttling), so a session left open cannot be used to guess the password without limit.
  const attempt = { address, username: user.username };
  await refuseWhenThrottled(db, attempt);
  const by = userBy(user, address);
  if (!(await verifyPassword(current, await findPasswordHash(db.kysely, user.id)))) {
    await db.transaction(async (trx) => {
      await recordFailure(trx, attempt);
      await recordAudit(trx, db, by, {
        action: 'password.changed',
        outcome: 'failure',
        target: { kind: 'user', id: user.id, label: user.username },
        details: { reason: 'The current password is not correct.' },
      });
    });
    throw new BadRequest('current_password', 'The current password is not correct.');
  }
  await clearFailures(db, attempt);
  await setPassword(db, user, password, { by, action: 'password.changed' }, user.sessionId);
}

/** Sets another user's password, ending all their sessions; answers their username. */
export async function resetPassword(
  db: Db,
  actor: Pick<SessionUser, 'id' | 'role'>,
  by: AuditBy,
  userId: number | string,
  password: string,
): Promise<string> {
  // A reset is allowed where (de)activation is (docs/screens.md#deactivate-users).
  const target = await targetOf(db.kysely, userId, actor, 'toggle');
  checkRule(password, target.username);
  await setPassword(db, target, password, { by, action: 'password.reset' });
  // A user throttled by failed sign-ins is typically why a reset is asked for: let the new password in.
  await clearUserFailures(db, target.username);
  return target.username;
}
