// The password rule of every account (NIST SP 800-63B, memorized secrets): the console checks it
// in its forms and the server enforces it on create, change and reset, so both say the same thing.
// Length and a blocklist only: NIST advises against composition rules (a digit, a symbol...).
import commonPasswords from './common-passwords.json';

export const PASSWORD_MIN_LENGTH = 8;
/**
 * NIST asks to allow at least 64 characters; 128 leaves room for passphrases while bounding what
 * a request makes the server hash.
 */
export const PASSWORD_MAX_LENGTH = 128;

/** The rule in one line, shown under every field where a password is chosen. */
export const PASSWORD_RULE = `At least ${PASSWORD_MIN_LENGTH} characters, not the username and not a commonly used password.`;

// Frequent passwords of public breach lists, lower-cased, only those of 8 characters or more
// (shorter ones fail on length anyway).
const COMMON = new Set<string>(commonPasswords);

/**
 * The first part of the rule `password` breaks, as a message for the person choosing it, or null.
 * Characters are Unicode code points, as NIST counts them. NIST also names "derivatives" of the
 * username; only the username itself is refused (case-insensitively), since refusing every
 * password that contains it would refuse good passphrases that happen to hold a short username.
 */
export function passwordProblem(password: string, username?: string | null): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  const lower = password.toLowerCase();
  if (username && lower === username.trim().toLowerCase()) return 'Password must not be the username';
  if (COMMON.has(lower)) return 'This password is too common: choose one that is harder to guess';
  return null;
}
