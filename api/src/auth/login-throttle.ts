// Throttling of password guessing, for both sign-ins. Only failed sign-ins are counted, per
// (client address, username) and per client address, so a burst of colleagues signing in behind
// one address is never slowed, and an attacker's failures cannot lock the rightful user out from
// another address. The failures are rows in the database, so every server instance sharing it
// applies the same limits.
//
// - pair: PAIR_MAX_FAILURES failures of one username from one address within the window refuse
//   that pair, even with the right password, until enough of them are older than the window. A
//   successful sign-in deletes the pair's failures (typos its user then corrected).
// - address: ADDRESS_MAX_FAILURES failures from one address, over all usernames, refuse every
//   sign-in from it the same way, before the password is hashed (this bounds the CPU an address
//   can spend on scrypt). A successful sign-in is not counted and clears only its own pair.
//
// A refusal is 429 with Retry-After. It depends only on the address and the username as typed,
// never on whether the account exists, so it reveals nothing about usernames.
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema';
import { nowIso } from '../db/schema';
import { TooManyRequests } from '../http-errors';

/** Five guesses per 15 minutes for one account from one address: 480 a day at most. */
export const PAIR_MAX_FAILURES = 5;
/**
 * Far above what the staff behind one address mistype without correcting it (corrected typos are
 * deleted), yet a password sprayed over many accounts gets at most 50 tries per 15 minutes.
 */
export const ADDRESS_MAX_FAILURES = 50;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;

/** Who tries to sign in: the client address and the username as typed. */
export interface Attempt {
  address: string;
  username: string;
}

type Scope = 'address' | 'pair';

/** The route's error field carries it too: `res` on the sign-ins, `error` on change_password. */
const refusal = (seconds: number, message: string) => {
  const minutes = Math.ceil(seconds / 60);
  return new TooManyRequests(`${message} Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, seconds);
};

const windowStart = () => new Date(Date.now() - FAILURE_WINDOW_MS).toISOString();

/**
 * Seconds until the scope is under its limit again, when it has reached it; undefined otherwise.
 * `counted` failures over the limit are let through: 1 when the caller's own failure is stored.
 */
async function lockedFor(db: Db, attempt: Attempt, scope: Scope, counted: 0 | 1): Promise<number | undefined> {
  const limit = scope === 'pair' ? PAIR_MAX_FAILURES : ADDRESS_MAX_FAILURES;
  let failures = db.kysely
    .selectFrom('login_failures')
    .select('failed_at')
    .where('client_address', '=', attempt.address)
    .where('failed_at', '>', windowStart());
  if (scope === 'pair') failures = failures.where('username', '=', attempt.username);
  // From the limit-th newest failure on: while that one is in the window, the limit is reached.
  const rows = await failures
    .orderBy('failed_at', 'desc')
    .offset(limit - 1)
    .limit(1 + counted)
    .execute();
  if (rows.length <= counted) return undefined;
  return Math.max(1, Math.ceil((Date.parse(rows[0]!.failed_at) + FAILURE_WINDOW_MS - Date.now()) / 1000));
}

/**
 * Throws the 429 of the address rule or, failing that, of the pair rule. Called before the
 * password is checked, and again after it: attempts running at the same time all pass the first
 * check, so the second one keeps a burst of parallel guesses from learning more than the limit
 * allows (`ownFailure`: the attempt has just stored its failure).
 */
export async function refuseWhenThrottled(db: Db, attempt: Attempt, { ownFailure = false } = {}): Promise<void> {
  const counted = ownFailure ? 1 : 0;
  const address = await lockedFor(db, attempt, 'address', counted);
  if (address !== undefined) throw refusal(address, 'Too many failed sign-in attempts from your address.');
  const pair = await lockedFor(db, attempt, 'pair', counted);
  if (pair !== undefined) throw refusal(pair, 'Too many failed sign-in attempts for this username from your address.');
}

/**
 * Stores a failure, deleting those older than the window so the table stays small. `kysely` is
 * the transaction that also writes the failure's audit entry.
 */
export async function recordFailure(kysely: Kysely<Database>, attempt: Attempt): Promise<void> {
  await kysely.deleteFrom('login_failures').where('failed_at', '<=', windowStart()).execute();
  await kysely
    .insertInto('login_failures')
    .values({ client_address: attempt.address, username: attempt.username, failed_at: nowIso() })
    .execute();
}

/** After a successful sign-in: the pair's failures no longer count, for either rule. */
export async function clearFailures(db: Db, attempt: Attempt): Promise<void> {
  await db.kysely
    .deleteFrom('login_failures')
    .where('client_address', '=', attempt.address)
    .where('username', '=', attempt.username)
    .execute();
}

/** After a password reset: the user's failures, from every address, no longer count. */
export async function clearUserFailures(db: Db, username: string): Promise<void> {
  await db.kysely.deleteFrom('login_failures').where('username', '=', username).execute();
}
