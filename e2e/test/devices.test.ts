// docs/screens.md#device-pick-list over the demo data, checked against api/get_status/, in both
// modes of docs/architecture.md#server-features: served a page at a time by our server, and read
// whole from api/get_status/ from a server that follows the spec alone (VERITAS_SPEC_ONLY).
import { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO, baseUrl, launchBrowser, newContext, signIn } from '../support/browser';
import { startServer, stopServer, type RunningServer } from '../support/server';

interface StatusRecord {
  id: number;
  tracking_id: { tracking_id: string; hub_code: string | null };
  is_submit: boolean;
  is_verified: boolean;
  is_verified_rc_by: boolean;
  submitted_by: { username: string } | null;
  verified_by: { username: string } | null;
  verified_by_rc: { username: string } | null;
  device_result: string | null;
}

type Mode = 'server pages' | 'get_status';

describe.each<Mode>(['server pages', 'get_status'])('%s', (mode) => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let records: StatusRecord[];

  const rows = () => page.locator('[data-testid="device-row"]');

  /** Waits until the page's record count shows n (the count element carries it raw in data-count). */
  async function waitForCount(n: number): Promise<void> {
    await page.waitForFunction(
      (expected) =>
        document.querySelector('[data-testid="record-count"]')?.getAttribute('data-count') === String(expected),
      n,
    );
  }

  let specOnly: RunningServer | undefined;
  /** The calls the page made to the API since the last look, as paths with their query. */
  let calls: string[] = [];
  const callsTo = (path: string) => calls.filter((call) => call.startsWith(`/veritas/${path}`));

  beforeAll(async () => {
    if (mode === 'get_status') specOnly = await startServer({ VERITAS_SPEC_ONLY: '1' });
    browser = await launchBrowser();
    context = await newContext(browser, { baseURL: specOnly?.url ?? baseUrl() });
    page = await context.newPage();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/veritas/')) calls.push(url.pathname + url.search);
    });
    await signIn(page, DEMO.admin);
    records = await (await page.request.get('/veritas/api/get_status/')).json();
    // From here on, only what the page itself asks for.
    calls = [];
    await page.goto('/ListDevices');
    await rows().first().waitFor();
  });
  afterAll(async () => {
    await browser.close();
    if (specOnly) await stopServer(specOnly);
  });

  test('the nine columns are shown and the count equals the records of api/get_status/', async () => {
    const headers = (await page.getByRole('columnheader').allTextContents()).map((t) => t.trim());
    expect(headers).toEqual([
      'Timestamp',
      'Tracking ID',
      'Hub Code',
      'Operator',
      'Expected Device',
      'Scanned Device',
      'Status',
      'Result',
      'Actions',
    ]);
    await waitForCount(records.length);
    // Virtualized: far fewer rows in the DOM than records.
    expect(await rows().count()).toBeLessThan(100);
  });

  test('the page reads its records the way the server offers: pages of api/devices/, or api/get_status/ once', async () => {
    if (mode === 'server pages') {
      // The first page and the total, started by the shell with the page's code (the firstCalls of
      // mfe-devices/remote.json, docs/architecture.md#first-rows) and taken by the page: once each.
      expect(callsTo('api/devices/?')).toEqual(['/veritas/api/devices/?limit=100']);
      expect(callsTo('api/devices/count/')).toEqual(['/veritas/api/devices/count/']);
      expect(callsTo('api/get_status/')).toEqual([]);
    } else {
      expect(callsTo('api/get_status/')).toHaveLength(1);
      expect(callsTo('api/devices/')).toEqual([]);
    }
  });

  test('filter by tracking id narrows the list (asking the server, or in memory without a refetch) and the clear button restores it', async () => {
    calls = [];
    const target = records[Math.floor(records.length / 2)]!.tracking_id.tracking_id;
    await page.getByPlaceholder('Filter by tracking id...').fill(target);
    const expected = records.filter((r) =>
      r.tracking_id.tracking_id.toLowerCase().includes(target.toLowerCase()),
    ).length;
    await waitForCount(expected);
    await rows().first().getByText(target).waitFor();

    await page.getByRole('button', { name: /clear/i }).first().click();
    await waitForCount(records.length);
    expect(callsTo('api/get_status/')).toEqual([]);
    if (mode === 'server pages')
      expect(callsTo('api/devices/?').some((call) => call.includes(`q=${target}`))).toBe(true);
    else expect(callsTo('api/devices/')).toEqual([]);
  });

  test("hub dropdown lists 'All Hubs' then the distinct hub codes, and filters by hub", async () => {
    const hubs = [...new Set(records.map((r) => r.tracking_id.hub_code).filter((h): h is string => !!h))].sort();
    const hubInput = page.getByPlaceholder('Filter by hub...');
    await hubInput.click();
    const options = (await page.getByRole('option').allInnerTexts()).map((t) => t.trim());
    expect(options[0]).toBe('All Hubs');
    expect([...options.slice(1)].sort()).toEqual(hubs);

    const hub = hubs[0]!;
    await page.getByRole('option', { name: hub, exact: true }).click();
    const expected = records.filter((r) => r.tracking_id.hub_code === hub).length;
    await waitForCount(expected);
    const shownHubs = await rows().locator('[data-column="hub"]').allInnerTexts();
    expect(shownHubs.every((h) => h.trim() === hub)).toBe(true);

    await hubInput.click();
    await page.getByRole('option', { name: 'All Hubs' }).click();
    await waitForCount(records.length);
  });

  test("'See Details' opens 'Device Details' with the three-step timeline", async () => {
    const detached = records.find((r) => r.is_verified_rc_by)!;
    await page.getByPlaceholder('Filter by tracking id...').fill(detached.tracking_id.tracking_id);
    await waitForCount(1);
    await rows().first().getByRole('button', { name: 'See Details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Device Details' });
    await dialog.waitFor();
    for (const step of ['Submitted', 'Verified at Hub', 'Verified at RC'])
      await dialog.getByText(step, { exact: true }).waitFor();
    await dialog.getByText(detached.submitted_by!.username).first().waitFor();
    await dialog.getByText(detached.verified_by_rc!.username).first().waitFor();
    await dialog.getByRole('button', { name: /close/i }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /clear/i }).first().click();
  });

  test('Device Details is modal (docs/screens.md#dialogs): focus moves in and stays, the page behind is inert; Escape or a click beside it closes it and focus returns', async () => {
    const opener = rows().first().getByRole('button', { name: 'See Details' });
    const dialog = page.getByRole('dialog', { name: 'Device Details' });
    const focusInDialog = () => page.evaluate(() => document.activeElement?.closest('dialog[open]') != null);
    const openerFocused = () => opener.evaluate((button) => button === document.activeElement);

    await opener.click();
    await dialog.waitFor();
    expect(await focusInDialog()).toBe(true);
    for (let press = 0; press < 3; press++) {
      await page.keyboard.press('Tab');
      expect(await focusInDialog()).toBe(true);
    }
    // Inert: the filter behind can be neither focused nor reached by the pointer.
    expect(
      await page.evaluate(() => {
        const filter = document.querySelector<HTMLInputElement>('input[placeholder="Filter by tracking id..."]')!;
        filter.focus();
        const box = filter.getBoundingClientRect();
        return [document.activeElement === filter, filter.contains(document.elementFromPoint(box.x + 5, box.y + 5))];
      }),
    ).toEqual([false, false]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await openerFocused()).toBe(true);

    await opener.click();
    await dialog.getByRole('heading', { name: 'Device Details' }).click();
    expect(await dialog.isVisible()).toBe(true);
    await page.mouse.click(10, 450);
    await dialog.waitFor({ state: 'detached' });
    expect(await openerFocused()).toBe(true);
  });

  test("status texts of docs/screens.md#status appear, including 'Detatched'", async () => {
    const pending = records.find((r) => !r.is_submit)!;
    await page.getByPlaceholder('Filter by tracking id...').fill(pending.tracking_id.tracking_id);
    await rows().first().getByText('Pending').waitFor();
    const detached = records.find((r) => r.is_verified_rc_by)!;
    await page.getByPlaceholder('Filter by tracking id...').fill(detached.tracking_id.tracking_id);
    await rows().first().getByText('Detatched').waitFor();
    await page.getByRole('button', { name: /clear/i }).first().click();
  });

  test('server pages: the Status and Result filters show exactly the records with that status and that result, and live in the URL', async () => {
    if (mode !== 'server pages') return;
    const detached = records.filter((r) => r.is_verified_rc_by);
    await page.getByRole('combobox', { name: 'Filter by status' }).click();
    await page.getByRole('option', { name: 'Detatched', exact: true }).click();
    await waitForCount(detached.length);
    await page.waitForURL(/status=detached/);
    const statuses = await rows().locator('[data-column="status"]').allInnerTexts();
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((text) => text.trim() === 'Detatched')).toBe(true);

    const passed = detached.filter((r) => r.device_result === 'passed');
    await page.getByRole('combobox', { name: 'Filter by result' }).click();
    await page.getByRole('option', { name: 'Passed', exact: true }).click();
    await waitForCount(passed.length);
    await page.waitForURL(/result=passed/);

    // A reload (or a shared link) shows the same list.
    await page.reload();
    await waitForCount(passed.length);
    expect(await page.getByRole('combobox', { name: 'Filter by status' }).inputValue()).toBe('Detatched');

    await page.goto('/ListDevices');
    await waitForCount(records.length);
  });

  test("server pages: the filters are drawn alike, none in the Result column's bold or width", async () => {
    if (mode !== 'server pages') return;
    const looks = (name: string) =>
      page.getByRole('combobox', { name }).evaluate((input) => {
        const style = getComputedStyle(input);
        return { weight: style.fontWeight, color: style.color };
      });
    const hub = await looks('Filter by hub');
    expect(await looks('Filter by status')).toEqual(hub);
    expect(await looks('Filter by result')).toEqual(hub);
    // The result filter is the wider one (its choices are error texts), the hub and status alike.
    const width = async (name: string) => (await page.getByRole('combobox', { name }).boundingBox())!.width;
    const hubWidth = await width('Filter by hub');
    expect(await width('Filter by status')).toBe(hubWidth);
    expect(await width('Filter by result')).toBeGreaterThan(hubWidth);
  });

  test('on a phone the filters each take the whole width, one under the other', async () => {
    const desktop = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      const filters = [page.getByRole('textbox', { name: 'Filter by tracking id' })];
      for (const name of [
        'Filter by hub',
        ...(mode === 'server pages' ? ['Filter by status', 'Filter by result'] : []),
      ])
        filters.push(page.getByRole('combobox', { name }));
      // Each filter's box in the toolbar: a combobox's input is narrower than its box (its toggle,
      // and a clear button once a choice is made).
      const boxes = await Promise.all(
        filters.map((filter) =>
          filter.evaluate((input) => {
            const { x, width } = input.closest('.dl-toolbar > *')!.getBoundingClientRect();
            return { x, width };
          }),
        ),
      );
      const toolbar = (await page.locator('.dl-toolbar').boundingBox())!;
      for (const box of boxes) expect(box).toEqual({ x: toolbar.x, width: toolbar.width });
    } finally {
      await page.setViewportSize(desktop);
    }
  });

  test('server pages: scrolling to the end loads every record once, each on its own row, without a load-more button', async () => {
    if (mode !== 'server pages') return;
    const seen = new Map<string, number>();
    const scroller = page.getByTestId('device-table-scroll');
    // One screen at a time: wait for the screen's placeholders to be filled, then read its rows.
    // Every screen shows a row not seen before, so the records' number bounds the screens: the
    // suite's server holds more records the later this file runs (18,000 and more, some 1,900
    // screens).
    for (let screen = 0; screen < records.length && seen.size < records.length; screen++) {
      await page.waitForFunction(() => !document.querySelector('[data-testid="device-row-placeholder"]'));
      const shown = await page.evaluate(() =>
        [...document.querySelectorAll('[data-testid="device-row"]')].map((row) => [
          row.querySelector('[data-column="tracking-id"]')?.textContent?.trim() ?? '',
          Number(row.getAttribute('aria-rowindex')),
        ]),
      );
      for (const [id, index] of shown as [string, number][]) if (id) seen.set(id, index);
      // Scrolled, and the rows of the new position rendered (two frames) before placeholders are looked for.
      await scroller.evaluate(async (element) => {
        element.scrollBy(0, element.clientHeight);
        for (let frame = 0; frame < 2; frame++)
          await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
      });
    }
    expect(seen.size).toBe(records.length);
    expect(new Set(seen.values()).size).toBe(records.length);
    expect(await page.getByRole('button', { name: /load more/i }).count()).toBe(0);
  }, 400_000);
});
