// docs/screens.md#white-labeled-brands — in a real browser against the real server and the IEEE registry it
// loaded: a brand is added, two manufacturers found by typing in the search are added, one is
// removed, the list is saved, and after a reload the saved list is what the brand shows.
import { Locator, Page } from 'playwright-core';
import { DEMO, freshPagePerTest, signIn } from '../support/browser';

const tab = freshPagePerTest();
let page: Page;
beforeEach(() => {
  page = tab.page();
});

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const brandToggle = (brand: string) => page.getByRole('button', { name: new RegExp(`^${brand}\\b`) });
const listedIn = (editor: Locator) => editor.getByRole('listitem').locator('span').allTextContents();

/** Types `typed` into the editor's search key by key, picks `name` among the answers and adds it. */
async function addFoundManufacturer(editor: Locator, typed: string, name: string): Promise<void> {
  const searched = page.waitForResponse(
    (res) =>
      res.url().includes('/veritas/api/get_manufacturer/') && new URL(res.url()).searchParams.get('search') === typed,
  );
  const search = editor.getByRole('combobox', { name: 'Search manufacturers' });
  await search.click(); // waits for the select to be loaded and enabled
  await search.pressSequentially(typed);
  expect((await searched).status()).toBe(200);
  await page.getByRole('option', { name, exact: true }).click();
  await editor.getByRole('button', { name: 'Add Manufacturer' }).click();
  await page.getByText('Manufacturer added successfully to list press update to save changes').first().waitFor();
}

test('admin adds a brand, adds two manufacturers found by search, removes one, updates; after a reload the saved list shows', async () => {
  await signIn(page, DEMO.admin);
  await page.goto('/WhiteLabel');
  await page.getByRole('heading', { name: 'White Labeled Brands' }).waitFor();

  const brand = unique('E2E Brand ');
  await page.getByRole('textbox', { name: 'New brand name' }).fill(brand);
  await page.getByRole('button', { name: 'Add Brand' }).click();
  await page.getByText('Brand added successfully!').waitFor();
  const editor = page.getByRole('region', { name: brand });
  await editor.getByText('No white-labels added').waitFor();

  await addFoundManufacturer(editor, 'apple, i', 'Apple, Inc.');
  await addFoundManufacturer(editor, 'sharp corp', 'SHARP Corporation');
  expect(await listedIn(editor)).toEqual(['Apple, Inc.', 'SHARP Corporation']);

  await editor.getByRole('button', { name: 'Remove Apple, Inc.' }).click();
  expect(await listedIn(editor)).toEqual(['SHARP Corporation']);

  const saved = page.waitForResponse(
    (res) => res.url().endsWith('/veritas/api/whitelable/') && res.request().method() === 'POST',
  );
  await editor.getByRole('button', { name: 'Update Changes DB' }).click();
  expect((await saved).status()).toBe(200);
  await page.getByText('Brand updated successfully!').waitFor();
  await editor.getByRole('button', { name: 'Update Changes DB' }).waitFor({ state: 'detached' });

  await page.reload();
  await brandToggle(brand).click();
  const reloaded = page.getByRole('region', { name: brand });
  await reloaded.getByRole('listitem').first().waitFor();
  expect(await listedIn(reloaded)).toEqual(['SHARP Corporation']);
});

// docs/errors.md#how-messages-are-shown: screen readers hear a toast because it is added to a live
// region that was in the page before it (a region added with its text, some never read).
test("a toast is added to the console's one live region for toasts, there before it, whose own region is off", async () => {
  await signIn(page, DEMO.admin);
  await page.goto('/WhiteLabel');
  await page.getByRole('heading', { name: 'White Labeled Brands' }).waitFor();
  const region = page.locator('[aria-live="polite"]:has([data-rht-toaster])');
  await expect(region.textContent()).resolves.toBe('');

  await page.getByRole('button', { name: 'Add Brand' }).click();

  const message = region.getByText('Please enter a brand name');
  await message.waitFor();
  await expect(message.evaluate((node) => node.closest('[aria-live]')?.getAttribute('aria-live'))).resolves.toBe('off');
});
