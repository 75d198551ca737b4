// WCAG 2.1 A/AA gate: axe-core runs on every screen and state of the console, signed in as the
// demo super_admin (every menu item present), and fails on any serious or critical finding; on
// each screen, Tab reaches every control and each shows a visible focus indicator.
// One test per row of STATES; a new screen or dialog is one more row (and, for the keyboard walk,
// its name in KEYBOARD_SCREENS).
import { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { axeViolations, describeViolation, expectNoSeriousViolations } from '../support/axe';
import { expectKeyboardReachWithVisibleFocus } from '../support/focus';
import { DEMO, launchBrowser, newContext, signIn } from '../support/browser';
import { ready } from '../support/dashboard-figures';
import { dropFile, SHIPMENT_HEADER } from '../support/upload';

interface ReachedState {
  /** Shown in this state; still checked after axe ran, so a state that clears itself (3 s, 5 s) was really analysed. */
  shown: Locator;
  /** Ends what the state held open (e.g. a held request) once axe is done. */
  release?: () => Promise<void>;
}

interface A11yState {
  name: string;
  /** Default: signed in as the demo super_admin. */
  signedOut?: true;
  /** Default: the suite's desktop viewport. */
  viewport?: { width: number; height: number };
  /** Brings a page (on about:blank) into the state. */
  reach(page: Page): Promise<ReachedState>;
}

const PHONE = { width: 375, height: 812 };
const localDate = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/**
 * A small shipment: two new rows, a duplicate, and enough rows of an unknown hub that the result
 * panel's list of errors scrolls in its box.
 */
function shipmentCsv(): string {
  const prefix = `A11Y${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1e4)}`;
  const created = new Date(Date.now() - 60_000).toISOString();
  const row = (id: string, hub = 'BLR01') => `${id},${hub},mobile,Samsung,Galaxy S23,false,,,${created}`;
  const unknownHub = Array.from({ length: 20 }, (_, i) => row(`${prefix}X${i}`, 'NO-SUCH-HUB'));
  return `${SHIPMENT_HEADER}\n${[row(`${prefix}1`), row(`${prefix}2`), row(`${prefix}1`), ...unknownHub].join('\n')}\n`;
}

async function uploadPage(page: Page): Promise<void> {
  await page.goto('/Upload');
  await page.getByRole('heading', { name: 'Upload CSV File' }).waitFor();
}

async function withSelectedFile(page: Page, text = shipmentCsv()): Promise<Locator> {
  await uploadPage(page);
  await dropFile(page, 'shipment.csv', text);
  const selected = page.getByRole('group', { name: 'Selected file' });
  await selected.getByText('shipment.csv').waitFor();
  return selected;
}

/** The dashboard with its data loaded and its three charts drawn. */
async function dashboard(page: Page): Promise<Locator> {
  await page.goto('/Dashboard');
  await ready(page);
  for (const chart of ['chart-rejection-trend', 'chart-daily-volume', 'chart-error-distribution']) {
    await page.getByTestId(chart).locator('canvas').waitFor();
  }
  return page.locator('[data-state="ready"]');
}

async function openMenu(page: Page, name: string): Promise<Locator> {
  await page.getByRole('button', { name }).click();
  const menu = page.getByRole('menu', { name });
  await menu.getByRole('menuitem').first().waitFor();
  return menu;
}

async function deviceList(page: Page): Promise<Locator> {
  await page.goto('/ListDevices');
  const row = page.getByTestId('device-row').first();
  await row.waitFor();
  return row;
}

/**
 * The Audit Log with its entries (every sign-in, the suite's own included, is one), and its filter
 * dropdowns in: their code loads on first use, and until then each is a disabled stand-in, which a
 * keyboard walk started meanwhile would leave unrecorded.
 */
async function auditLog(page: Page): Promise<Locator> {
  await page.goto('/AuditLog');
  const row = page.locator('tr[data-seq]').first();
  await row.waitFor();
  for (const name of ['Action', 'Target kind', 'Outcome']) await page.getByRole('combobox', { name }).waitFor();
  return row;
}

/** The Audit Log with the newest entry's details open, from the keyboard. */
async function auditEntryDetails(page: Page): Promise<Locator> {
  const row = await auditLog(page);
  await row.getByRole('button', { name: /^Details of entry/ }).focus();
  await page.keyboard.press('Enter');
  const details = page.getByRole('region', { name: /^Details of entry/ });
  await details.waitFor();
  return details;
}

async function whiteLabelEditor(page: Page): Promise<Locator> {
  await page.goto('/WhiteLabel');
  const toggle = page.locator('.wl-card__toggle').first();
  const brand = (await toggle.locator('.wl-card__name').textContent())!;
  const searched = page.waitForResponse((res) => res.url().includes('/veritas/api/get_manufacturer/'));
  await toggle.click();
  const editor = page.getByRole('region', { name: brand });
  await editor.getByRole('combobox', { name: 'Search manufacturers' }).waitFor();
  await searched;
  return editor;
}

/**
 * The Integrations page with two webhook endpoints (one the server disabled, so its notice shows)
 * and a delivery log, answered in the browser: the suite's server sends only to public https://
 * addresses, which this machine cannot resolve. The page's other calls go to the server.
 */
async function integrationsWithEndpoints(page: Page): Promise<Locator> {
  const endpoint = {
    id: 7,
    url: 'https://orders.example.com/veritas/hooks',
    description: 'Order system',
    eventTypes: ['record.flagged', 'shipment.ingested', 'case.opened'],
    enabled: true,
    disabledReason: null,
    disabledAt: null,
    failingSince: '2026-03-05T09:00:00.000Z',
    previousSecretExpiresAt: null,
    createdBy: DEMO.admin,
    createdAt: '2026-03-01T08:00:00.000Z',
  };
  const gone = {
    ...endpoint,
    id: 6,
    url: 'https://retired.example.com/in',
    description: '',
    enabled: false,
    disabledReason: 'gone',
    disabledAt: '2026-03-04T10:00:00.000Z',
    failingSince: null,
  };
  const attempt = (status: number | null, response: string) => ({
    at: '2026-03-05T09:00:01.000Z',
    status,
    latencyMs: 48,
    response,
  });
  const deliveries = [
    {
      id: 41,
      messageId: 'msg_220_0',
      type: 'case.opened',
      createdAt: '2026-03-05T09:00:00.000Z',
      state: 'pending',
      nextAttemptAt: '2099-03-05T09:30:00.000Z',
      attempts: [attempt(503, 'Service Unavailable'), attempt(null, 'connect ECONNREFUSED 203.0.113.9:443')],
    },
    {
      id: 40,
      messageId: 'msg_219_0',
      type: 'record.flagged',
      createdAt: '2026-03-05T08:00:00.000Z',
      state: 'succeeded',
      nextAttemptAt: null,
      attempts: [attempt(200, '{"received":true}')],
    },
    {
      id: 39,
      messageId: 'msg_210_0',
      type: 'shipment.ingested',
      createdAt: '2026-03-04T08:00:00.000Z',
      state: 'failed',
      nextAttemptAt: null,
      attempts: [attempt(410, 'Gone')],
    },
  ];
  await page.route('**/veritas/api/integrations/endpoints/', (route) =>
    route.request().method() === 'GET' ? route.fulfill({ json: { endpoints: [endpoint, gone] } }) : route.fallback(),
  );
  await page.route(/\/veritas\/api\/integrations\/endpoints\/\d+\/deliveries\//, (route) =>
    route.fulfill({ json: { deliveries, next: '39' } }),
  );
  await page.goto('/Integrations');
  // Exact: on a phone the endpoints' table scrolls, its box a region named 'Webhook endpoints table'.
  const section = page.getByRole('region', { name: 'Webhook endpoints', exact: true });
  await section.getByRole('rowheader', { name: endpoint.url }).waitFor();
  await page.getByRole('region', { name: 'API keys', exact: true }).getByRole('table').waitFor();
  return section;
}

const STATES: A11yState[] = [
  {
    name: 'login: empty form',
    signedOut: true,
    async reach(page) {
      await page.goto('/login');
      const button = page.getByRole('button', { name: 'Login' });
      await button.waitFor();
      return { shown: button };
    },
  },
  {
    name: 'login: error line after a wrong password',
    signedOut: true,
    async reach(page) {
      await page.goto('/login');
      await page.getByLabel('Username').fill(DEMO.superAdmin);
      await page.getByLabel('Password', { exact: true }).fill('not-the-password');
      await page.getByRole('button', { name: 'Login' }).click();
      const line = page.getByRole('alert').getByText('Invalid username or password');
      await line.waitFor();
      return { shown: line };
    },
  },
  { name: 'Dashboard: data loaded, charts drawn', reach: async (page) => ({ shown: await dashboard(page) }) },
  {
    name: 'Dashboard: hub dropdown open',
    async reach(page) {
      await dashboard(page);
      await page.getByRole('combobox', { name: 'Hub' }).click();
      const option = page.getByRole('option', { name: 'All Hubs' });
      await option.waitFor();
      return { shown: option };
    },
  },
  {
    name: 'Data menu open',
    async reach(page) {
      await dashboard(page);
      return { shown: await openMenu(page, 'Data') };
    },
  },
  {
    name: 'User Management menu open',
    async reach(page) {
      await dashboard(page);
      return { shown: await openMenu(page, 'User Management') };
    },
  },
  { name: 'Dashboard at 375 px', viewport: PHONE, reach: async (page) => ({ shown: await dashboard(page) }) },
  // WCAG 1.4.10's reflow width: the top-five tables scroll sideways in their boxes.
  {
    name: 'Dashboard at 320 px',
    viewport: { width: 320, height: 720 },
    reach: async (page) => ({ shown: await dashboard(page) }),
  },
  {
    name: '375 px: mobile menu open',
    viewport: PHONE,
    async reach(page) {
      await dashboard(page);
      await page.getByRole('button', { name: 'Menu' }).click();
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('button', { name: 'Data' }).waitFor();
      return { shown: nav };
    },
  },
  {
    name: '375 px: mobile menu open with the Data menu expanded',
    viewport: PHONE,
    async reach(page) {
      await dashboard(page);
      await page.getByRole('button', { name: 'Menu' }).click();
      return { shown: await openMenu(page, 'Data') };
    },
  },
  { name: 'ListDevices: rows loaded', reach: async (page) => ({ shown: await deviceList(page) }) },
  {
    name: 'ListDevices: Device Details open',
    async reach(page) {
      const row = await deviceList(page);
      // Opened from the keyboard, as the keyboard walk over this state also needs.
      await row.getByRole('button', { name: 'See Details' }).focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Device Details' });
      await dialog.getByText('Verified at RC', { exact: true }).waitFor();
      return { shown: dialog };
    },
  },
  {
    name: 'createuser',
    async reach(page) {
      await page.goto('/createuser');
      const form = page.getByRole('form', { name: 'Create Group' });
      await form.waitFor();
      await page.waitForLoadState('networkidle');
      return { shown: form };
    },
  },
  {
    name: 'createuser: error notice after an empty submit',
    async reach(page) {
      await page.goto('/createuser');
      const form = page.getByRole('form', { name: 'Create User' });
      await form.getByRole('button', { name: 'Create User' }).click();
      const notice = form.getByRole('alert').getByText('Username and email are required');
      await notice.waitFor();
      return { shown: notice };
    },
  },
  {
    name: 'Deactivateuser: users loaded',
    async reach(page) {
      await page.goto('/Deactivateuser');
      const row = page.locator(`tr[data-username="${DEMO.admin}"]`);
      await row.waitFor();
      return { shown: row };
    },
  },
  {
    name: 'Change password dialog open',
    async reach(page) {
      await deviceList(page);
      await page.getByRole('banner').getByRole('button', { name: 'Change password' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change password' });
      await dialog.getByLabel('Current password').waitFor();
      return { shown: dialog };
    },
  },
  {
    name: 'Change password dialog: a field refused',
    async reach(page) {
      await deviceList(page);
      await page.getByRole('banner').getByRole('button', { name: 'Change password' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change password' });
      await dialog.getByRole('button', { name: 'Change password' }).click();
      const invalid = dialog.locator('[aria-invalid="true"]').first();
      await invalid.waitFor();
      return { shown: invalid };
    },
  },
  {
    name: 'Deactivateuser: Reset password dialog open',
    async reach(page) {
      await page.goto('/Deactivateuser');
      const row = page.locator(`tr[data-username="${DEMO.executive}"]`);
      await row.getByRole('button', { name: 'Reset password' }).click();
      const dialog = page.getByRole('dialog', { name: `Reset password for ${DEMO.executive}` });
      await dialog.getByLabel('New password', { exact: true }).waitFor();
      return { shown: dialog };
    },
  },
  {
    name: 'Deployments: remotes, tokens and origins',
    async reach(page) {
      await page.goto('/Deployments');
      const heading = page.getByRole('heading', { name: 'Allowed origins', exact: true });
      await heading.waitFor();
      await page.getByRole('heading', { name: 'devices', exact: true }).waitFor();
      return { shown: heading };
    },
  },
  {
    name: "Deployments: the token form's faults under their fields",
    async reach(page) {
      await page.goto('/Deployments');
      const form = page.getByRole('form', { name: 'Create a deploy token' });
      await form.getByLabel('May deploy').selectOption({ label: 'A new remote…' });
      await form.getByRole('button', { name: 'Create token' }).click();
      const fault = form.getByText('Name the new remote the token may deploy.');
      await fault.waitFor();
      return { shown: fault };
    },
  },
  {
    name: "Deployments: a new token's secret shown once",
    async reach(page) {
      await page.goto('/Deployments');
      const form = page.getByRole('form', { name: 'Create a deploy token' });
      await form.getByLabel('Label').fill(`a11y ${Date.now()}`);
      await form.getByLabel(/Expires/).fill(localDate(new Date(Date.now() + 86_400_000)));
      await form.getByRole('button', { name: 'Create token' }).click();
      const secret = page.getByRole('region', { name: /^Secret of the token/ });
      await secret.waitFor();
      return { shown: secret };
    },
  },
  {
    name: 'Integrations: API keys',
    async reach(page) {
      await page.goto('/Integrations');
      const form = page.getByRole('form', { name: 'Create an API key' });
      await form.waitFor();
      await page.getByRole('region', { name: 'API keys' }).getByRole('table').waitFor();
      return { shown: form };
    },
  },
  {
    name: "Integrations: a new key's secret shown once",
    async reach(page) {
      await page.goto('/Integrations');
      const form = page.getByRole('form', { name: 'Create an API key' });
      await form.getByLabel('Label').fill(`a11y ${Date.now()}`);
      await form.getByRole('checkbox', { name: /Read cases/ }).check();
      await form.getByRole('button', { name: 'Create key' }).click();
      const secret = page.getByRole('region', { name: /^Secret of the key / });
      await secret.waitFor();
      return { shown: secret };
    },
  },
  {
    name: 'Integrations: webhook endpoints listed',
    reach: async (page) => ({ shown: await integrationsWithEndpoints(page) }),
  },
  {
    name: 'Integrations: add-endpoint form with an error shown',
    async reach(page) {
      const section = await integrationsWithEndpoints(page);
      const form = section.getByRole('form', { name: 'Add a webhook endpoint' });
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      const error = form.getByText('Give the address the events are sent to.');
      await error.waitFor();
      return { shown: error };
    },
  },
  {
    name: 'Integrations: delivery log open',
    async reach(page) {
      const section = await integrationsWithEndpoints(page);
      await section.getByRole('button', { name: /^Delivery log of https:\/\/orders\./ }).click();
      const log = section.getByRole('region', { name: /^Delivery log of / });
      await log.getByRole('button', { name: 'Attempts (2) of msg_220_0' }).click();
      await log.getByRole('table', { name: 'Attempts of msg_220_0' }).waitFor();
      return { shown: log };
    },
  },
  {
    name: 'Upload: idle',
    async reach(page) {
      await uploadPage(page);
      return { shown: page.getByRole('button', { name: /Drag and drop a CSV file here/ }) };
    },
  },
  { name: 'Upload: file selected', reach: async (page) => ({ shown: await withSelectedFile(page) }) },
  {
    name: 'Upload: uploading (first chunk held)',
    async reach(page) {
      await withSelectedFile(page);
      // The chunk is held until axe is done, so the progress state lasts as long as needed.
      let releaseChunk!: () => void;
      const held = new Promise<void>((resolve) => (releaseChunk = resolve));
      await page.route('**/veritas/api/upload/', async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      const progress = page.getByRole('progressbar', { name: 'Uploading... 0%' });
      await progress.waitFor();
      return {
        shown: progress,
        release: async () => {
          releaseChunk();
          await page.getByRole('status').filter({ hasText: 'Processed' }).waitFor();
        },
      };
    },
  },
  {
    name: 'Upload: success result panel',
    async reach(page) {
      await withSelectedFile(page);
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      const panel = page.getByRole('status').filter({ hasText: 'Processed' });
      // Its list of errors is long enough to scroll, so it is a region in the tab order.
      await panel.getByRole('region', { name: 'Errors list' }).waitFor();
      return { shown: panel };
    },
  },
  {
    name: 'Upload: non-CSV drop rejected',
    async reach(page) {
      await uploadPage(page);
      await dropFile(page, 'photo.png', 'not a csv', 'image/png');
      const panel = page.getByRole('alert').getByText('Invalid file type: please choose a .csv file');
      await panel.waitFor();
      return { shown: panel };
    },
  },
  {
    name: 'Upload: server error panel',
    async reach(page) {
      // A header the server cannot use: it refuses the file with a message.
      await withSelectedFile(page, 'just,some,columns\n1,2,3\n');
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      const panel = page.locator('.vx-notice--error[role="alert"]');
      await panel.waitFor();
      return { shown: panel };
    },
  },
  {
    name: 'Download',
    async reach(page) {
      await page.goto('/Download');
      const form = page.getByRole('form', { name: 'Download Data' });
      await form.waitFor();
      return { shown: form };
    },
  },
  {
    name: 'Download: dates chosen',
    async reach(page) {
      await page.goto('/Download');
      const form = page.getByRole('form', { name: 'Download Data' });
      await form.getByLabel('Start Date').fill(localDate(new Date(Date.now() - 24 * 3600 * 1000)));
      await form.getByLabel('End Date').fill(localDate(new Date()));
      const button = form.getByRole('button', { name: 'Download CSV' });
      await button.click({ trial: true }); // waits until it is enabled, without clicking
      return { shown: button };
    },
  },
  {
    name: 'Download: date error',
    async reach(page) {
      await page.goto('/Download');
      const form = page.getByRole('form', { name: 'Download Data' });
      await form.getByLabel('Start Date').fill(localDate(new Date()));
      await form.getByLabel('End Date').fill(localDate(new Date(Date.now() - 24 * 3600 * 1000)));
      const error = form.getByRole('alert').getByText('End date cannot be before start date');
      await error.waitFor();
      return { shown: error };
    },
  },
  {
    name: 'WhiteLabel',
    async reach(page) {
      await page.goto('/WhiteLabel');
      const toggle = page.locator('.wl-card__toggle').first();
      await toggle.waitFor();
      return { shown: toggle };
    },
  },
  { name: "WhiteLabel: a brand's editor open", reach: async (page) => ({ shown: await whiteLabelEditor(page) }) },
  {
    name: "WhiteLabel: a brand's editor with unsaved changes",
    async reach(page) {
      const editor = await whiteLabelEditor(page);
      await editor
        .getByRole('button', { name: /^Remove / })
        .first()
        .click();
      const update = editor.getByRole('button', { name: 'Update Changes DB' });
      await update.waitFor();
      return { shown: update };
    },
  },
  { name: 'AuditLog: entries loaded', reach: async (page) => ({ shown: await auditLog(page) }) },
  { name: "AuditLog: an entry's details open", reach: async (page) => ({ shown: await auditEntryDetails(page) }) },
  {
    name: 'AuditLog: filtered to nothing',
    async reach(page) {
      await page.goto('/AuditLog?actor=nobody-at-all');
      const empty = page.getByText('No entries match these filters.');
      await empty.waitFor();
      return { shown: empty };
    },
  },
  { name: 'AuditLog at 375 px', viewport: PHONE, reach: async (page) => ({ shown: await auditLog(page) }) },
];

/**
 * Screens walked with Tab (rows of STATES): every control reached, each showing its focus.
 * Transient states (a message that clears itself) are left out: a walk takes longer than they last.
 */
const KEYBOARD_SCREENS = [
  'login: empty form',
  'Dashboard: data loaded, charts drawn',
  'Dashboard at 320 px',
  '375 px: mobile menu open',
  'ListDevices: rows loaded',
  'ListDevices: Device Details open',
  'createuser',
  'Deactivateuser: users loaded',
  'Change password dialog open',
  'Deactivateuser: Reset password dialog open',
  'Upload: file selected',
  'Download: dates chosen',
  "WhiteLabel: a brand's editor with unsaved changes",
  'Deployments: remotes, tokens and origins',
  'Integrations: API keys',
  'Integrations: webhook endpoints listed',
  'Integrations: add-endpoint form with an error shown',
  'Integrations: delivery log open',
  "AuditLog: an entry's details open",
];

let browser: Browser;
/** The demo super_admin's session, signed in once for the file. */
let session: Awaited<ReturnType<BrowserContext['storageState']>>;

beforeAll(async () => {
  browser = await launchBrowser();
  const context = await newContext(browser);
  await signIn(await context.newPage(), DEMO.superAdmin);
  session = await context.storageState();
  await context.close();
});
afterAll(async () => {
  await browser.close();
});

/** Runs `check` on a fresh page (own context, signed in unless the state is not) brought into `state`. */
async function inState(state: A11yState, check: (page: Page, shown: Locator) => Promise<void>): Promise<void> {
  const context = await newContext(browser, {
    ...(state.viewport && { viewport: state.viewport }),
    ...(!state.signedOut && { storageState: session }),
  });
  try {
    const page = await context.newPage();
    const { shown, release } = await state.reach(page);
    await check(page, shown);
    await release?.();
  } finally {
    await context.close();
  }
}

describe('axe: no serious or critical WCAG 2.1 A/AA violation', () => {
  test.each(STATES)('$name', (state) =>
    inState(state, async (page, shown) => {
      await expectNoSeriousViolations(page, state.name);
      expect(await shown.isVisible()).toBe(true);
    }),
  );
});

describe('keyboard: Tab reaches every control, each with a visible focus indicator', () => {
  test.each(KEYBOARD_SCREENS)('%s', (name) => {
    const state = STATES.find((s) => s.name === name);
    if (!state) throw new Error(`no state named ${name}`);
    return inState(state, (page) => expectKeyboardReachWithVisibleFocus(page, name));
  });

  test.each(['Data', 'User Management'])(
    '%s menu: opened with Enter, every item reached with the arrow keys, each showing its focus',
    (menu) =>
      inState(
        STATES.find((s) => s.name === 'Dashboard: data loaded, charts drawn')!,
        async (page) => {
          const button = page.getByRole('button', { name: menu });
          await button.focus();
          await page.keyboard.press('Enter');
          const items = page.getByRole('menu', { name: menu }).getByRole('menuitem');
          await items.first().waitFor();
          const names = (await items.allInnerTexts()).map((t) => t.trim());
          const problems: string[] = [];
          for (const [i, name] of names.entries()) {
            if (i > 0) await page.keyboard.press('ArrowDown');
            const focused = await page.evaluate(() => document.activeElement?.textContent?.trim());
            if (focused !== name) problems.push(`ArrowDown to '${name}' focused '${focused}'`);
            const ring = await items.nth(i).evaluate((el) => {
              const s = getComputedStyle(el);
              return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1;
            });
            if (!ring) problems.push(`'${name}' shows no focus ring`);
          }
          await page.keyboard.press('Escape');
          expect(problems).toEqual([]);
          expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
        },
      ),
  );
});

// WCAG 1.4.10 (reflow): at 320 CSS px wide, and at 640 (a 1280 px screen zoomed to 200 %), no page
// scrolls sideways as a whole: the top bar wraps, a wide table scrolls inside its own box.
describe('reflow: no screen is wider than a 320 px or a 640 px viewport', () => {
  const REFLOW_SCREENS = [
    'login: empty form',
    'Dashboard: data loaded, charts drawn',
    'ListDevices: rows loaded',
    'ListDevices: Device Details open',
    'createuser',
    'Deactivateuser: users loaded',
    'Upload: success result panel',
    'Download',
    "WhiteLabel: a brand's editor open",
    'Deployments: remotes, tokens and origins',
    'Integrations: webhook endpoints listed',
    'AuditLog: entries loaded',
  ];
  test.each(REFLOW_SCREENS.flatMap((name) => [320, 640].map((width) => [name, width] as const)))(
    '%s at %d px',
    (name, width) => {
      const state = STATES.find((s) => s.name === name);
      if (!state) throw new Error(`no state named ${name}`);
      return inState({ ...state, viewport: { width, height: 720 } }, async (page) => {
        const widest = await page.evaluate(() => document.documentElement.scrollWidth);
        expect({ name, width, widest: Math.max(widest, width) }).toEqual({ name, width, widest: width });
      });
    },
  );
});

// docs/screens.md#tables: a table wider than its box makes the box a region, named apart from the
// section its caption often repeats (a best practice of axe's, outside WCAG's tags, so checked here).
describe('landmarks: no two on a screen share a name, on a phone too', () => {
  const SCREENS_WITH_TABLES_IN_SECTIONS = [
    'Deployments: remotes, tokens and origins',
    'Integrations: webhook endpoints listed',
    'Deactivateuser: users loaded',
    'AuditLog: entries loaded',
  ];
  test.each(
    SCREENS_WITH_TABLES_IN_SECTIONS.flatMap((name) => [1366, PHONE.width].map((width) => [name, width] as const)),
  )('%s at %d px', (name, width) => {
    const state = STATES.find((s) => s.name === name);
    if (!state) throw new Error(`no state named ${name}`);
    return inState({ ...state, viewport: { width, height: PHONE.height } }, async (page) => {
      const found = await axeViolations(page, ['landmark-unique']);
      expect(found.map(describeViolation)).toEqual([]);
    });
  });
});

// docs/screens.md#device-pick-list: on a 1280 px screen the pick list shows every column, See
// Details included, without scrolling sideways: 1250 px of viewport is 1280 less the page's and
// the list's classic scrollbars (headless Chromium's overlay ones take no room).
test('the Device Pick List shows every column on a 1280 px screen', () =>
  inState(
    { ...STATES.find((s) => s.name === 'ListDevices: rows loaded')!, viewport: { width: 1250, height: 800 } },
    async (page) => {
      const list = page.locator('.dl-scroll');
      const widths = await list.evaluate((box) => ({ content: box.scrollWidth, shown: box.clientWidth }));
      expect(widths.content).toBeLessThanOrEqual(widths.shown);
      const button = await page.getByRole('button', { name: 'See Details' }).first().boundingBox();
      const box = await list.boundingBox();
      expect(button!.x + button!.width).toBeLessThanOrEqual(box!.x + box!.width);
    },
  ));

// axe's best practices beyond WCAG's tags (page-has-heading-one, landmark-one-main): each page is
// named by one level-one heading and holds its content in one main landmark, so that a screen
// reader's user can jump to either.
describe('structure: every page has one level-one heading and one main landmark', () => {
  const PAGES = [
    '/login',
    '/Dashboard',
    '/ListDevices',
    '/createuser',
    '/Deactivateuser',
    '/Upload',
    '/Download',
    '/WhiteLabel',
    '/Cases',
    '/Integrations',
    '/AuditLog',
    '/Deployments',
  ];
  test.each(PAGES)('%s', (path) =>
    inState(
      {
        name: path,
        signedOut: path === '/login' || undefined,
        reach: async (page) => {
          await page.goto(path);
          const heading = page.locator('h1');
          await heading.first().waitFor({ state: 'attached' });
          return { shown: heading.first() };
        },
      },
      async (page) => {
        expect([await page.locator('h1').count(), await page.getByRole('main').count()]).toEqual([1, 1]);
      },
    ),
  );
});
