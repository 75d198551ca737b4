// The bootstrap super_admin (src/users/first-admin.ts) follows the rule of every username: no two
// users differ by case alone (docs/screens.md#create-user-form).
import { ensureAdmin } from '../src/users/first-admin';
import { closeDatabase, migrateToLatest, openDatabase } from '../src/db/connection';
import { freshDatabase } from './support/database';

test('the bootstrap super_admin is created once, and not beside a user of its name in another case', async () => {
  const fresh = await freshDatabase();
  const db = openDatabase(fresh.options);
  try {
    await migrateToLatest(db);
    const log = jest.spyOn(console, 'log').mockImplementation(() => {});
    await ensureAdmin(db, 'root', undefined);
    await ensureAdmin(db, 'root', undefined);
    await ensureAdmin(db, 'ROOT', undefined);
    log.mockRestore();
    const names = await db.kysely.selectFrom('users').select(['username', 'role']).execute();
    expect(names).toEqual([{ username: 'root', role: 'super_admin' }]);
  } finally {
    await closeDatabase(db);
    await fresh.drop();
  }
});
