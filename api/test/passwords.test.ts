// Password storage: salted scrypt hashes, checked in constant time.
import { hashPassword, verifyPassword } from '../src/auth/passwords';

test('passwords are stored as salted scrypt hashes: the same password hashes differently and verifies', async () => {
  const a = await hashPassword('Veritas@123');
  const b = await hashPassword('Veritas@123');
  expect(a).toMatch(/^scrypt\$\d+\$\d+\$\d+\$/);
  expect(a).not.toBe(b);
  expect(a).not.toContain('Veritas@123');
  expect(await verifyPassword('Veritas@123', a)).toBe(true);
  expect(await verifyPassword('Veritas@124', a)).toBe(false);
  expect(await verifyPassword('Veritas@123', 'garbage')).toBe(false);
});
