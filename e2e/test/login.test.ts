// docs/screens.md#login and docs/errors.md#login — in a real browser against the real server.
import { Page } from 'playwright-core';
import { DEMO, DEMO_PASSWORD, freshPagePerTest, signIn } from '../support/browser';

const tab = freshPagePerTest();
let page: Page;
beforeEach(() => {
  page = tab.page();
});

async function submitLogin(username: string, password: string): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

test('login: empty fields show "Username and password are required" for 3 s and send nothing', async () => {
  await page.goto('/login');
  let loginCalls = 0;
  page.on('request', (req) => {
    if (req.url().includes('/veritas/user/login/')) loginCalls++;
  });
  await page.getByLabel('Username').fill('admin_demo');
  await page.getByRole('button', { name: 'Login' }).click();
  const message = page.getByText('Username and password are required');
  await message.waitFor();
  await message.waitFor({ state: 'detached', timeout: 5000 });
  expect(loginCalls).toBe(0);
});

test('login: wrong password shows "Invalid username or password" (401)', async () => {
  await page.goto('/login');
  await submitLogin(DEMO.admin, 'not-the-password');
  await page.getByText('Invalid username or password').waitFor();
  expect(new URL(page.url()).pathname).toBe('/login');
});

test('login: the is_webview rule refuses operators with "{role}, are not allowed to login from web browser"', async () => {
  await page.goto('/login');
  await submitLogin(DEMO.operator, DEMO_PASSWORD);
  await page.getByText('operators, are not allowed to login from web browser').waitFor();
  // No session was set: the protected pages still send the user to /login.
  await page.goto('/ListDevices');
  await page.waitForURL('**/login');
});

test("login: 403 shows the server's res message (deactivated account)", async () => {
  await page.goto('/login');
  await submitLogin('former_exec_hyd', DEMO_PASSWORD);
  await page.getByText('Account is deactivated').waitFor();
});

test('login: any other failure shows "An unexpected error occurred. Please try again later."', async () => {
  await page.goto('/login');
  // The server is unreachable for this one call.
  await page.route('**/veritas/user/login/', (route) => route.abort('connectionrefused'));
  await submitLogin(DEMO.admin, DEMO_PASSWORD);
  await page.getByText('An unexpected error occurred. Please try again later.').waitFor();
});

test('login: the password can be shown and hidden', async () => {
  await page.goto('/login');
  const password = page.getByLabel('Password', { exact: true });
  await password.fill('secret');
  expect(await password.getAttribute('type')).toBe('password');
  await page.getByRole('button', { name: /show password/i }).click();
  expect(await password.getAttribute('type')).toBe('text');
  await page.getByRole('button', { name: /hide password/i }).click();
  expect(await password.getAttribute('type')).toBe('password');
});

test('redirect: an unauthenticated visit to a protected route replaces history with /login', async () => {
  await page.goto('/ListDevices');
  await page.waitForURL('**/login');
  await page.getByRole('button', { name: 'Login' }).waitFor();
});

test('redirect: a signed-in user who opens /login is sent to / and the index shows Dashboard', async () => {
  await signIn(page, DEMO.admin);
  await page.goto('/login');
  await page.waitForURL((url) => url.pathname === '/Dashboard');
});
