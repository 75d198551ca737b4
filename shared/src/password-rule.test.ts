import commonPasswords from './common-passwords.json';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_RULE, passwordProblem } from './password-rule';

describe('passwordProblem', () => {
  test('the length is at least 8 characters', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(8);
    expect(passwordProblem('')).toBe('Password must be at least 8 characters');
    expect(passwordProblem('Kx7#qLm')).toBe('Password must be at least 8 characters');
    expect(passwordProblem('Kx7#qLm2')).toBeNull();
  });

  test('characters are code points: an emoji counts once, not as two UTF-16 units', () => {
    expect('🔑🔑🔑🔑'.length).toBe(8);
    expect(passwordProblem('🔑🔑🔑🔑')).toBe('Password must be at least 8 characters');
    expect(passwordProblem('🔑🔑🔑🔑🔑🔑🔑🔑')).toBeNull();
  });

  test('the length is at most 128 characters', () => {
    expect(PASSWORD_MAX_LENGTH).toBe(128);
    expect(passwordProblem('x'.repeat(64) + 'y'.repeat(64))).toBeNull();
    expect(passwordProblem('x'.repeat(64) + 'y'.repeat(65))).toBe('Password must be at most 128 characters');
    expect(passwordProblem('ü'.repeat(128))).toBeNull();
  });

  test('the password is not the username, in any case; containing it is allowed', () => {
    expect(passwordProblem('exec_blr_01', 'Exec_BLR_01')).toBe('Password must not be the username');
    expect(passwordProblem('EXEC_BLR_01', ' exec_blr_01 ')).toBe('Password must not be the username');
    expect(passwordProblem('exec_blr_01 on the night shift', 'exec_blr_01')).toBeNull();
    expect(passwordProblem('exec_blr_01', null)).toBeNull();
  });

  test('the password is not a common one, compared case-insensitively', () => {
    const message = 'This password is too common: choose one that is harder to guess';
    expect(passwordProblem('password')).toBe(message);
    expect(passwordProblem('PassWord123')).toBe(message);
    expect(passwordProblem('qwertyuiop')).toBe(message);
    expect(passwordProblem('Welcome@123')).toBe(message);
    expect(passwordProblem('password-with-more-words')).toBeNull();
  });

  test('the list is a few hundred lower-case entries, none of which passes on length alone', () => {
    expect(commonPasswords.length).toBeGreaterThan(200);
    expect(commonPasswords.length).toBeLessThanOrEqual(500);
    expect(new Set(commonPasswords).size).toBe(commonPasswords.length);
    for (const entry of commonPasswords) {
      expect(entry).toBe(entry.toLowerCase());
      expect([...entry].length).toBeGreaterThanOrEqual(PASSWORD_MIN_LENGTH);
    }
  });

  test('the first problem found is reported: length before username before the list', () => {
    expect(passwordProblem('admin', 'admin')).toBe('Password must be at least 8 characters');
    expect(passwordProblem('password', 'password')).toBe('Password must not be the username');
  });

  test.each([
    'Veritas@123',
    'Test-Pass-123',
    'Root-Admin-Pass-1',
    'Admin#e2e-2025',
    'Str0ng#pass',
    'Secret-123',
    'Env-Admin-Pass-9',
  ])('the demo and test password %s passes', (password) => {
    expect(passwordProblem(password, 'admin')).toBeNull();
  });
});

test('PASSWORD_RULE states every part in one line', () => {
  expect(PASSWORD_RULE).toBe('At least 8 characters, not the username and not a commonly used password.');
});
