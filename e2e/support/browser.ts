// Debian's chromium driven by playwright-core; no browser is ever downloaded.
import { Browser, BrowserContext, BrowserContextOptions, chromium, Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../../scripts/setup-test-machine';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export function baseUrl(): string {
  const url = process.env.E2E_URL;
  if (!url) throw new Error('E2E_URL is not set: run the suite through jest (global setup starts the server)');
  return url;
}

/** Demo accounts of the seeded data (all share one password). */
export const DEMO_PASSWORD = 'Veritas@123';
export const DEMO = {
  superAdmin: 'superadmin_demo',
  admin: 'admin_demo',
  centralOps: 'central_demo',
  incharge: 'incharge_blr',
  executive: 'exec_blr',
  operator: 'wm_blr',
} as const;

/**
 * For a test file: one browser for the file, a fresh context (no cookies) and page for each test.
 * Read the page and context through the returned getters inside tests.
 */
export function freshPagePerTest(options: { baseURL?: () => string } = {}): {
  page: () => Page;
  context: () => BrowserContext;
} {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });
  beforeEach(async () => {
    context = await newContext(browser, options.baseURL ? { baseURL: options.baseURL() } : {});
    page = await context.newPage();
  });
  afterEach(async () => {
    await context.close();
  });
  return { page: () => page, context: () => context };
}

export async function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ baseURL: baseUrl(), viewport: { width: 1366, height: 900 }, ...options });
}

/** Signs in through the real login form and waits for the protected layout. */
export async function signIn(page: Page, username: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  // The layout checks the login on mount: let that and the first page's calls settle.
  await page.getByRole('button', { name: 'Logout' }).waitFor();
  await page.waitForLoadState('networkidle');
}

/** The property `markDocument` sets on the page's window. */
const DOCUMENT_MARK = 'veritasTestDocumentMark';

/**
 * Marks the page's document, to tell later that a change reached it live: a reload (or any new
 * document) loses the mark. `stillMarked` answers whether the page shows the marked document.
 */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate((mark) => Object.assign(window, { [mark]: true }), DOCUMENT_MARK);
}

/** Whether the page still shows the document `markDocument` marked: no reload since. */
export function stillMarked(page: Page): Promise<boolean> {
  return page.evaluate((mark) => (window as unknown as Record<string, unknown>)[mark] === true, DOCUMENT_MARK);
}
