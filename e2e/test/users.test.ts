// docs/screens.md#create-user-and-create-group, docs/screens.md#deactivate-users and
// docs/screens.md#server-side-rights — in a real browser against the
// real server: every creator role creates a user of every role it may assign; deactivation ends
// sign-in and open sessions; deletion is super_admin's alone.
import { BrowserContext, Page } from 'playwright-core';
import { DEMO, freshPagePerTest, newContext, signIn } from '../support/browser';

const tab = freshPagePerTest();
let page: Page;
let context: BrowserContext;
beforeEach(() => {
  page = tab.page();
  context = tab.context();
});

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Picks `option` in the search-select named `label` inside `scope`. */
async function choose(scope: ReturnType<Page['getByRole']>, label: string, option: string): Promise<void> {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function createUserThroughForm(username: string, roleLabel: string, withGroup: boolean): Promise<void> {
  const form = page.getByRole('form', { name: 'Create User' });
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Email').fill(`${username}@example.com`);
  await form.getByLabel('Password', { exact: true }).fill('Str0ng#pass');
  await choose(form, 'Role', roleLabel);
  if (withGroup) {
    await choose(form, 'Organization', 'HUB');
    await choose(form, 'Group', 'BLR01');
  } else {
    // central_ops belong to no group: organization and group leave the form.
    await form.getByRole('combobox', { name: 'Organization' }).waitFor({ state: 'detached' });
  }
  const answered = page.waitForResponse((res) => res.url().endsWith('/veritas/user/create/'));
  await form.getByRole('button', { name: 'Create User' }).click();
  expect((await answered).status()).toBe(201);
  await form.getByRole('status').getByText('User created successfully!').waitFor();
}

async function listedUsers(): Promise<{ username: string; role: string; is_active: boolean }[]> {
  return (await page.request.get('/veritas/user/get_users/')).json();
}

/** Calls the API the way the console does, XSRF header included. */
async function post(path: string, data: unknown) {
  const xsrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value;
  return page.request.post(`/veritas/${path}`, { data, headers: { 'X-XSRF-TOKEN': xsrf } });
}

const CREATORS = [
  { creator: DEMO.incharge, roles: ['executive', 'operators'] },
  { creator: DEMO.centralOps, roles: ['incharge', 'executive'] },
  { creator: DEMO.admin, roles: ['operators', 'executive', 'incharge', 'central_ops'] },
  { creator: DEMO.superAdmin, roles: ['operators', 'executive', 'incharge', 'central_ops'] },
];

test.each(CREATORS)(
  '$creator creates a user of every role it may assign ($roles) through the form',
  async ({ creator, roles }) => {
    await signIn(page, creator);
    await page.goto('/createuser');
    const form = page.getByRole('form', { name: 'Create User' });
    await form.getByRole('combobox', { name: 'Role' }).click();
    const offered = (await page.getByRole('option').allTextContents()).map((t) => t.trim());
    const label = (role: string) => (role === 'operators' ? 'Wishmaster' : role);
    expect(offered).toEqual(roles.map(label));
    await page.keyboard.press('Escape');

    for (const role of roles) {
      const username = unique(`e2e_${role.slice(0, 4)}_`);
      await createUserThroughForm(username, label(role), role !== 'central_ops');
      expect(await listedUsers()).toContainEqual(expect.objectContaining({ username, role, is_active: true }));
    }
  },
);

test('the group form is shown to admin only among these, and a new group is offered by the user form at once', async () => {
  await signIn(page, DEMO.centralOps);
  await page.goto('/createuser');
  await page.getByRole('form', { name: 'Create User' }).waitFor();
  expect(await page.getByRole('form', { name: 'Create Group' }).count()).toBe(0);

  await context.clearCookies();
  await signIn(page, DEMO.admin);
  await page.goto('/createuser');
  const groupForm = page.getByRole('form', { name: 'Create Group' });
  const code = unique('E2E').toUpperCase();
  await groupForm.getByLabel('Code').fill(code);
  expect(await groupForm.getByLabel('Name').inputValue()).toBe(code);
  await choose(groupForm, 'Organization', 'HUB');
  await groupForm.getByRole('button', { name: 'Create Group' }).click();
  await groupForm.getByRole('status').getByText('Group created successfully!').waitFor();

  const userForm = page.getByRole('form', { name: 'Create User' });
  await choose(userForm, 'Role', 'executive');
  await choose(userForm, 'Organization', 'HUB');
  await userForm.getByRole('combobox', { name: 'Group' }).click();
  await page.getByRole('option', { name: code, exact: true }).waitFor();
});

test('deactivation asks first, then the user can no longer sign in and their open session stops working', async () => {
  await signIn(page, DEMO.admin);
  const victim = unique('e2e_victim_');
  const created = await post('user/create/', {
    username: victim,
    email: `${victim}@example.com`,
    password: 'Str0ng#pass',
    role: 'executive',
    group: 'BLR01',
    organization: 'hub',
  });
  expect(created.status()).toBe(201);

  // The victim is signed in elsewhere.
  const victimContext = await newContext(context.browser()!);
  const victimPage = await victimContext.newPage();
  await signIn(victimPage, victim, 'Str0ng#pass');

  await page.goto('/Deactivateuser');
  const row = page.locator(`tr[data-username="${victim}"]`);
  await row.waitFor();

  // A cancelled confirmation sends nothing.
  let sent = 0;
  page.on('request', (req) => {
    if (req.url().includes('/veritas/user/deactivate_user/')) sent++;
  });
  page.once('dialog', (dialog) => void dialog.dismiss());
  await row.getByRole('button', { name: 'Deactivate' }).click();
  await page.waitForTimeout(300);
  expect(sent).toBe(0);

  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: 'Deactivate' }).click();
  await row.getByRole('button', { name: 'Activate' }).waitFor();
  expect(sent).toBe(1);
  expect((await listedUsers()).find((u) => u.username === victim)?.is_active).toBe(false);

  // Their open session is over: the next page load goes to /login.
  await victimPage.goto('/ListDevices');
  await victimPage.waitForURL('**/login');
  // And signing in again is refused.
  await victimPage.getByLabel('Username').fill(victim);
  await victimPage.getByLabel('Password', { exact: true }).fill('Str0ng#pass');
  await victimPage.getByRole('button', { name: 'Login' }).click();
  await victimPage.getByText('Account is deactivated').waitFor();
  await victimContext.close();
});

test('the Delete column is super_admin only; super_admin deletes a user after confirming', async () => {
  await signIn(page, DEMO.admin);
  await page.goto('/Deactivateuser');
  await page.locator(`tr[data-username="${DEMO.executive}"]`).waitFor();
  const adminHeaders = (await page.getByRole('columnheader').allTextContents()).map((t) => t.trim());
  expect(adminHeaders).toEqual(['Username', 'Role', 'Group Code', 'Active', 'Action']);
  await context.clearCookies();

  await signIn(page, DEMO.superAdmin);
  const doomed = unique('e2e_doomed_');
  expect(
    (
      await post('user/create/', {
        username: doomed,
        email: `${doomed}@example.com`,
        password: 'Str0ng#pass',
        role: 'central_ops',
        group: '',
        organization: '',
      })
    ).status(),
  ).toBe(201);
  await page.goto('/Deactivateuser');
  const row = page.locator(`tr[data-username="${doomed}"]`);
  await row.getByText('N/A').waitFor(); // central_ops belong to no group
  const headers = (await page.getByRole('columnheader').allTextContents()).map((t) => t.trim());
  expect(headers).toEqual(['Username', 'Role', 'Group Code', 'Active', 'Action', 'Delete']);
  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: 'Delete' }).click();
  await row.waitFor({ state: 'detached' });
  expect((await listedUsers()).some((u) => u.username === doomed)).toBe(false);
});
