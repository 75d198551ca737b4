// Passwords users can change — in a real browser against the real server: one's own from the top
// bar (other sessions end, this one stays), and another user's from Deactivate Users (their open
// session ends at once). Each test creates its own user, so the demo accounts keep their password.
import { BrowserContext, Page } from 'playwright-core';
import { DEMO, freshPagePerTest, newContext, signIn } from '../support/browser';

const tab = freshPagePerTest();
let page: Page;
let context: BrowserContext;
beforeEach(() => {
  page = tab.page();
  context = tab.context();
});

const FIRST_PASSWORD = 'First-Pass-2025';
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Creates an executive of BLR01 through the API as the signed-in admin of `page`, as the console calls it. */
async function createExecutive(username: string): Promise<void> {
  const xsrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value;
  const answer = await page.request.post('/veritas/user/create/', {
    data: {
      username,
      email: `${username}@example.com`,
      password: FIRST_PASSWORD,
      role: 'executive',
      group: 'BLR01',
      organization: 'hub',
    },
    headers: { 'X-XSRF-TOKEN': xsrf },
  });
  expect(answer.status()).toBe(201);
}

/** A page of its own browser context (no shared cookies) signed in as `username`. */
async function elsewhere(
  username: string,
  password = FIRST_PASSWORD,
): Promise<{ page: Page; context: BrowserContext }> {
  const other = await newContext(context.browser()!);
  const otherPage = await other.newPage();
  await signIn(otherPage, username, password);
  return { page: otherPage, context: other };
}

/** Signs in through the login form and answers the message it shows, or null once signed in. */
async function loginOutcome(target: Page, username: string, password: string): Promise<string | null> {
  await target.goto('/login');
  await target.getByLabel('Username').fill(username);
  await target.getByLabel('Password', { exact: true }).fill(password);
  const answered = target.waitForResponse((res) => res.url().endsWith('/veritas/user/login/'));
  await target.getByRole('button', { name: 'Login' }).click();
  if ((await answered).ok()) {
    await target.getByRole('button', { name: 'Logout' }).waitFor();
    return null;
  }
  return (await target.getByRole('alert').filter({ hasText: /\S/ }).textContent())?.trim() ?? '';
}

test('a user changes their password from the top bar: other sessions end, this one stays, only the new password signs in', async () => {
  await signIn(page, DEMO.admin);
  const username = unique('e2e_pw_');
  await createExecutive(username);
  await context.clearCookies();

  await signIn(page, username, FIRST_PASSWORD);
  const other = await elsewhere(username);

  // The control is in the top bar in the mobile layout too.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.getByRole('banner').getByRole('button', { name: 'Change password' }).isVisible()).toBe(true);
  await page.setViewportSize({ width: 1366, height: 900 });

  await page.getByRole('button', { name: 'Change password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change password' });
  await dialog.getByLabel('Current password', { exact: true }).fill(FIRST_PASSWORD);
  await dialog.getByLabel('New password', { exact: true }).fill('Second-Pass-2025');
  await dialog.getByLabel('Confirm new password').fill('Second-Pass-2025');
  const answered = page.waitForResponse((res) => res.url().endsWith('/veritas/user/change_password/'));
  await dialog.getByRole('button', { name: 'Change password' }).click();
  expect((await answered).status()).toBe(200);
  await dialog
    .getByRole('status')
    .getByText('Your password has been changed. Your other sessions have been signed out.')
    .waitFor();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.waitFor({ state: 'detached' });

  // The other browser is sent to /login on its next call; this one carries on.
  await other.page.goto('/ListDevices');
  await other.page.waitForURL('**/login');
  await page.goto('/ListDevices');
  await page.getByRole('button', { name: 'Logout' }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/ListDevices');

  expect(await loginOutcome(other.page, username, FIRST_PASSWORD)).toBe('Invalid username or password');
  expect(await loginOutcome(other.page, username, 'Second-Pass-2025')).toBeNull();
  await other.context.close();
});

test("an admin resets an executive's password from Deactivate Users: the executive's open session ends at once, the new password signs in", async () => {
  await signIn(page, DEMO.admin);
  const username = unique('e2e_reset_');
  await createExecutive(username);
  const executive = await elsewhere(username);

  await page.goto('/Deactivateuser');
  const row = page.locator(`tr[data-username="${username}"]`);
  await row.getByRole('button', { name: 'Reset password' }).click();
  const dialog = page.getByRole('dialog', { name: `Reset password for ${username}` });
  await dialog.getByLabel('New password', { exact: true }).fill('Given-By-Admin-7');
  await dialog.getByLabel('Confirm new password').fill('Given-By-Admin-7');
  await dialog.getByRole('button', { name: 'Reset password' }).click();
  // The page's notice (the toast repeats it outside the main area).
  await page
    .getByRole('main')
    .getByRole('status')
    .getByText(`Password of user ${username} reset successfully.`)
    .waitFor();
  await dialog.waitFor({ state: 'detached' });

  await executive.page.goto('/ListDevices');
  await executive.page.waitForURL('**/login');
  expect(await loginOutcome(executive.page, username, FIRST_PASSWORD)).toBe('Invalid username or password');
  expect(await loginOutcome(executive.page, username, 'Given-By-Admin-7')).toBeNull();
  await executive.context.close();
});
