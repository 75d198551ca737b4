import { VeritasToaster, toast, type Brand, type ManufacturerResult } from '@veritas/shared';
import {
  mockApi,
  type MockApi,
  type MockHandler,
  type RecordedRequest,
  withQueryClient,
} from '@veritas/shared/testing';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import WhiteLabelPage from './white-label-page';

const REGISTRY = [
  'Apple, Inc.',
  'Samsung Electronics Co.,Ltd',
  'SHARP Corporation',
  'Sony Group Corporation',
  'Toshiba Samsung Storage',
];

const acme = (): Brand => ({ id: 1, brand: 'Acme', white_labeled_brands: { data: ['Apple, Inc.'] } });
const nova = (): Brand => ({ id: 2, brand: 'Nova', white_labeled_brands: { data: [] } });

/** get_manufacturer/ as the server answers it: names containing the search. */
function searchRegistry(request: RecordedRequest): [number, ManufacturerResult[]] {
  const text = String(request.config.params?.search ?? '').toLowerCase();
  return [
    200,
    REGISTRY.map((manufacturer, i) => ({ id: i + 1, manufacturer })).filter((m) =>
      m.manufacturer.toLowerCase().includes(text),
    ),
  ];
}

let api: MockApi;

afterEach(() => {
  api.restore();
  act(() => toast.remove());
});

async function renderPage({
  brands = [200, [acme(), nova()]] as MockHandler,
  search = searchRegistry as MockHandler,
} = {}) {
  api = mockApi().on('GET api/whitelable/', brands).on('GET api/get_manufacturer/', search);
  render(
    <>
      <VeritasToaster />
      <WhiteLabelPage />
    </>,
    { wrapper: withQueryClient() },
  );
  await waitFor(() => expect(screen.queryByText('Loading brands…')).not.toBeInTheDocument());
}

const toggle = (brand: string) => screen.getByRole('button', { name: new RegExp(`^${brand}\\b`) });
const cards = () => screen.queryAllByRole('article').map((card) => card.getAttribute('data-brand'));
const editor = (brand: string) => screen.getByRole('region', { name: brand });
const listed = (brand: string) =>
  within(editor(brand))
    .queryAllByRole('listitem')
    .map((item) => item.firstChild?.textContent);
const saveButtons = (brand: string) =>
  within(editor(brand)).queryAllByRole('button', { name: /^(Cancel|Update Changes DB)$/ });

async function openEditor(brand: string) {
  await userEvent.click(toggle(brand));
  // The editor offers the first manufacturers once it has searched for ''.
  await waitFor(() => expect(api.requestsTo('GET api/get_manufacturer/').length).toBeGreaterThan(0));
}

/** Types in the editor's search, waits for the option and adds it. */
async function addThroughSearch(brand: string, typed: string, option: string) {
  await userEvent.type(within(editor(brand)).getByRole('combobox', { name: 'Search manufacturers' }), typed);
  await userEvent.click(await screen.findByRole('option', { name: option }));
  await userEvent.click(within(editor(brand)).getByRole('button', { name: 'Add Manufacturer' }));
}

describe('the screen', () => {
  test("title 'White Labeled Brands', subtitle, the brands from api/whitelable/ as collapsed cards", async () => {
    await renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'White Labeled Brands' })).toBeInTheDocument();
    expect(screen.getByText('Manage your brands and their manufacturers')).toBeInTheDocument();
    expect(cards()).toEqual(['Acme', 'Nova']);
    expect(toggle('Acme')).toHaveAttribute('aria-expanded', 'false');
    expect(toggle('Acme')).toHaveTextContent('1 manufacturer');
    expect(api.requestsTo('GET api/whitelable/')).toHaveLength(1);
  });

  test.each<[string, MockHandler]>([
    ['an error status', [500, { message: 'not shown' }]],
    ['a non-list answer', [200, { brands: [] }]],
  ])("%s of the brand list toasts 'Failed to fetch white labels'", async (_case, reply) => {
    await renderPage({ brands: reply });
    expect(await screen.findByText('Failed to fetch white labels')).toBeInTheDocument();
    expect(cards()).toEqual([]);
  });

  test("'Select a brand to edit.' shows while no card is open; a card's button opens and closes its editor", async () => {
    await renderPage();
    expect(screen.getByText('Select a brand to edit.')).toBeInTheDocument();
    await openEditor('Acme');
    expect(toggle('Acme')).toHaveAttribute('aria-expanded', 'true');
    expect(editor('Acme')).toBeInTheDocument();
    expect(screen.queryByText('Select a brand to edit.')).not.toBeInTheDocument();

    await userEvent.click(toggle('Nova'));
    expect(toggle('Acme')).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: 'Acme' })).not.toBeInTheDocument();
    expect(editor('Nova')).toBeInTheDocument();

    await userEvent.click(toggle('Nova'));
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    expect(screen.getByText('Select a brand to edit.')).toBeInTheDocument();
  });

  test("the brand filter: 'All Brands' shows every card; choosing a brand shows only its card, opened", async () => {
    await renderPage();
    const filter = screen.getByRole('combobox', { name: 'Filter by brand' });
    expect(filter).toHaveValue('All Brands');
    await userEvent.click(filter);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['All Brands', 'Acme', 'Nova']);
    await userEvent.click(screen.getByRole('option', { name: 'Nova' }));
    expect(cards()).toEqual(['Nova']);
    expect(toggle('Nova')).toHaveAttribute('aria-expanded', 'true');

    await userEvent.click(filter);
    await userEvent.click(screen.getByRole('option', { name: 'All Brands' }));
    expect(cards()).toEqual(['Acme', 'Nova']);
  });
});

describe('brand add', () => {
  const addBrand = async (name: string) => {
    const input = screen.getByRole('textbox', { name: 'New brand name' });
    await userEvent.clear(input);
    if (name) await userEvent.type(input, name);
    await userEvent.click(screen.getByRole('button', { name: 'Add Brand' }));
  };

  test.each(['', '   '])("an empty name (%p) toasts 'Please enter a brand name' and sends nothing", async (name) => {
    await renderPage();
    await addBrand(name);
    expect(await screen.findByText('Please enter a brand name')).toBeInTheDocument();
    expect(api.requestsTo('POST api/whitelable/')).toHaveLength(0);
  });

  test("an existing name, compared case-insensitively, toasts 'This brand already exists' and sends nothing", async () => {
    await renderPage();
    await addBrand('  aCmE ');
    expect(await screen.findByText('This brand already exists')).toBeInTheDocument();
    expect(api.requestsTo('POST api/whitelable/')).toHaveLength(0);
  });

  test("sends {brand, data: []}, toasts 'Brand added successfully!', reloads the list and opens the new brand", async () => {
    await renderPage();
    const zeta: Brand = { id: 3, brand: 'Zeta', white_labeled_brands: { data: [] } };
    api.on('POST api/whitelable/', [201, zeta]).on('GET api/whitelable/', [200, [acme(), nova(), zeta]]);
    await addBrand(' Zeta ');
    expect(await screen.findByText('Brand added successfully!')).toBeInTheDocument();
    expect(api.requestsTo('POST api/whitelable/').map((r) => r.body)).toEqual([{ brand: 'Zeta', data: [] }]);
    await waitFor(() => expect(cards()).toEqual(['Acme', 'Nova', 'Zeta']));
    expect(toggle('Zeta')).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('textbox', { name: 'New brand name' })).toHaveValue('');
  });

  test.each<[string, MockHandler, string]>([
    [
      "the server's message",
      [409, { message: 'This brand already exists', detail: 'This brand already exists' }],
      'This brand already exists',
    ],
    ['else the error message', [500, { detail: 'Internal server error' }], 'Request failed with status code 500'],
    ["else 'Failed to add brand'", () => Promise.reject(new Error('')), 'Failed to add brand'],
  ])('a failure toasts %s; the typed name stays', async (_case, reply, shown) => {
    await renderPage();
    api.on('POST api/whitelable/', reply);
    await addBrand('Zeta');
    expect(await screen.findByText(shown)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'New brand name' })).toHaveValue('Zeta');
    expect(api.requestsTo('GET api/whitelable/')).toHaveLength(1);
  });
});

describe('brand editor', () => {
  test("an empty list shows 'No white-labels added'", async () => {
    await renderPage();
    await openEditor('Nova');
    expect(within(editor('Nova')).getByText('No white-labels added')).toBeInTheDocument();
  });

  test('the manufacturer search is debounced: typing "sam" sends one search for "sam" and lists what it found', async () => {
    await renderPage();
    await openEditor('Nova');
    await userEvent.type(within(editor('Nova')).getByRole('combobox', { name: 'Search manufacturers' }), 'sam');
    await screen.findByRole('option', { name: 'Toshiba Samsung Storage' });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Samsung Electronics Co.,Ltd',
      'Toshiba Samsung Storage',
    ]);
    expect(api.requestsTo('GET api/get_manufacturer/').map((r) => r.config.params.search)).toEqual(['', 'sam']);
  });

  test('while the search runs, the menu says Loading...', async () => {
    let answer: (reply: [number, unknown]) => void = () => {};
    await renderPage({ search: () => new Promise((resolve) => (answer = resolve)) });
    await openEditor('Nova');
    await userEvent.click(within(editor('Nova')).getByRole('combobox', { name: 'Search manufacturers' }));
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    await act(async () => answer([200, [{ id: 1, manufacturer: 'Apple, Inc.' }]]));
    expect(await screen.findByRole('option', { name: 'Apple, Inc.' })).toBeInTheDocument();
  });

  test.each<[string, MockHandler, string]>([
    ['the message', [500, { message: 'Search is down' }], 'Search is down'],
    ["'Failed to load manufacturers' without one", () => Promise.reject(new Error('')), 'Failed to load manufacturers'],
  ])('a failed search toasts %s and offers no options', async (_case, reply, shown) => {
    await renderPage({ search: reply });
    await openEditor('Nova');
    expect(await screen.findByText(shown)).toBeInTheDocument();
    await userEvent.click(within(editor('Nova')).getByRole('combobox', { name: 'Search manufacturers' }));
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(screen.getByText('No options')).toBeInTheDocument();
  });

  test("adding with nothing selected toasts 'Please select a manufacturer'", async () => {
    await renderPage();
    await openEditor('Nova');
    await userEvent.click(within(editor('Nova')).getByRole('button', { name: 'Add Manufacturer' }));
    expect(await screen.findByText('Please select a manufacturer')).toBeInTheDocument();
    expect(within(editor('Nova')).getByText('No white-labels added')).toBeInTheDocument();
  });

  test('a manufacturer found by search is added to the list with its message; the search is cleared', async () => {
    await renderPage();
    await openEditor('Nova');
    await addThroughSearch('Nova', 'sony', 'Sony Group Corporation');
    expect(
      await screen.findByText('Manufacturer added successfully to list press update to save changes'),
    ).toBeInTheDocument();
    expect(listed('Nova')).toEqual(['Sony Group Corporation']);
    expect(within(editor('Nova')).getByRole('combobox', { name: 'Search manufacturers' })).toHaveValue('');
    expect(toggle('Nova')).toHaveTextContent('1 manufacturer');
  });

  test("adding one already listed toasts 'This manufacturer is already in the list'", async () => {
    await renderPage();
    await openEditor('Acme');
    await addThroughSearch('Acme', 'apple', 'Apple, Inc.');
    expect(await screen.findByText('This manufacturer is already in the list')).toBeInTheDocument();
    expect(listed('Acme')).toEqual(['Apple, Inc.']);
  });

  test('the remove button removes that manufacturer with its message', async () => {
    await renderPage();
    await openEditor('Acme');
    await userEvent.click(within(editor('Acme')).getByRole('button', { name: 'Remove Apple, Inc.' }));
    expect(
      await screen.findByText('Manufacturer removed successfully from list press update to save changes'),
    ).toBeInTheDocument();
    expect(within(editor('Acme')).getByText('No white-labels added')).toBeInTheDocument();
  });

  test('the editor is keyboard operable: search, choose with arrows and Enter, add, remove', async () => {
    await renderPage();
    await openEditor('Nova');
    await userEvent.click(within(editor('Nova')).getByRole('combobox', { name: 'Search manufacturers' }));
    await userEvent.keyboard('sharp');
    await screen.findByRole('option', { name: 'SHARP Corporation' });
    await userEvent.keyboard('{ArrowDown}{Enter}{Tab}{Enter}');
    expect(listed('Nova')).toEqual(['SHARP Corporation']);
    within(editor('Nova')).getByRole('button', { name: 'Remove SHARP Corporation' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(within(editor('Nova')).getByText('No white-labels added')).toBeInTheDocument();
  });
});

describe('the keyboard focus stays in the editor when the control holding it goes', () => {
  test('a removal focuses the remove button now at its place, else the one before it, else Add Manufacturer', async () => {
    await renderPage();
    await openEditor('Acme');
    await addThroughSearch('Acme', 'sony', 'Sony Group Corporation');
    await addThroughSearch('Acme', 'sharp', 'SHARP Corporation');
    const remove = (name: string) => within(editor('Acme')).getByRole('button', { name: `Remove ${name}` });
    remove('Sony Group Corporation').focus();
    await userEvent.keyboard('{Enter}');
    expect(remove('SHARP Corporation')).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(remove('Apple, Inc.')).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(within(editor('Acme')).getByRole('button', { name: 'Add Manufacturer' })).toHaveFocus();
  });

  test('Cancel and a saved update leave the focus on Add Manufacturer', async () => {
    await renderPage();
    api.on('POST api/whitelable/', (request) => [
      200,
      { id: 1, brand: 'Acme', white_labeled_brands: { data: (request.body as { data: string[] }).data } },
    ]);
    await openEditor('Acme');
    const add = () => within(editor('Acme')).getByRole('button', { name: 'Add Manufacturer' });
    await addThroughSearch('Acme', 'sony', 'Sony Group Corporation');
    within(editor('Acme')).getByRole('button', { name: 'Cancel' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(saveButtons('Acme')).toHaveLength(0);
    expect(add()).toHaveFocus();
    await addThroughSearch('Acme', 'sony', 'Sony Group Corporation');
    within(editor('Acme')).getByRole('button', { name: 'Update Changes DB' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(saveButtons('Acme')).toHaveLength(0));
    expect(add()).toHaveFocus();
  });
});

describe('unsaved changes: Cancel and Update Changes DB', () => {
  test('appear only while the list differs from the saved one', async () => {
    await renderPage();
    await openEditor('Acme');
    expect(saveButtons('Acme')).toHaveLength(0);
    await addThroughSearch('Acme', 'sony', 'Sony Group Corporation');
    expect(saveButtons('Acme').map((b) => b.textContent)).toEqual(['Cancel', 'Update Changes DB']);
    expect(toggle('Acme')).toHaveTextContent('Unsaved changes');
    // Removing what was added gives the saved list back: nothing to save.
    await userEvent.click(within(editor('Acme')).getByRole('button', { name: 'Remove Sony Group Corporation' }));
    expect(saveButtons('Acme')).toHaveLength(0);
    expect(toggle('Acme')).not.toHaveTextContent('Unsaved changes');
  });

  test('Cancel reverts to the saved list and sends nothing', async () => {
    await renderPage();
    await openEditor('Acme');
    await userEvent.click(within(editor('Acme')).getByRole('button', { name: 'Remove Apple, Inc.' }));
    await addThroughSearch('Acme', 'sharp', 'SHARP Corporation');
    expect(listed('Acme')).toEqual(['SHARP Corporation']);
    await userEvent.click(within(editor('Acme')).getByRole('button', { name: 'Cancel' }));
    expect(listed('Acme')).toEqual(['Apple, Inc.']);
    expect(saveButtons('Acme')).toHaveLength(0);
    expect(api.requestsTo('POST api/whitelable/')).toHaveLength(0);
  });

  test('unsaved changes are kept while the card is closed', async () => {
    await renderPage();
    await openEditor('Acme');
    await addThroughSearch('Acme', 'sony', 'Sony Group Corporation');
    await userEvent.click(toggle('Acme'));
    expect(toggle('Acme')).toHaveTextContent('2 manufacturers');
    expect(toggle('Acme')).toHaveTextContent('Unsaved changes');
    await userEvent.click(toggle('Acme'));
    expect(listed('Acme')).toEqual(['Apple, Inc.', 'Sony Group Corporation']);
  });

  test("Update Changes DB sends {id, brand, data}, toasts 'Brand updated successfully!' and the list becomes the saved one", async () => {
    await renderPage();
    api.on('POST api/whitelable/', (request) => [
      200,
      { id: 1, brand: 'Acme', white_labeled_brands: { data: (request.body as { data: string[] }).data } },
    ]);
    await openEditor('Acme');
    await addThroughSearch('Acme', 'sam', 'Samsung Electronics Co.,Ltd');
    await userEvent.click(within(editor('Acme')).getByRole('button', { name: 'Update Changes DB' }));
    expect(await screen.findByText('Brand updated successfully!')).toBeInTheDocument();
    expect(api.requestsTo('POST api/whitelable/').map((r) => r.body)).toEqual([
      { id: 1, brand: 'Acme', data: ['Apple, Inc.', 'Samsung Electronics Co.,Ltd'] },
    ]);
    expect(saveButtons('Acme')).toHaveLength(0);
    expect(listed('Acme')).toEqual(['Apple, Inc.', 'Samsung Electronics Co.,Ltd']);
  });

  test('saving an emptied list sends the id with data: [] (an update, not a create)', async () => {
    await renderPage();
    api.on('POST api/whitelable/', [200, { id: 1, brand: 'Acme', white_labeled_brands: { data: [] } }]);
    await openEditor('Acme');
    await userEvent.click(within(editor('Acme')).getByRole('button', { name: 'Remove Apple, Inc.' }));
    await userEvent.click(within(editor('Acme')).getByRole('button', { name: 'Update Changes DB' }));
    expect(await screen.findByText('Brand updated successfully!')).toBeInTheDocument();
    expect(api.requestsTo('POST api/whitelable/').map((r) => r.body)).toEqual([{ id: 1, brand: 'Acme', data: [] }]);
  });

  test.each<[string, MockHandler, string]>([
    [
      "the server's message",
      [400, { message: 'Unknown manufacturer: Sony Group Corporation', detail: 'x' }],
      'Unknown manufacturer: Sony Group Corporation',
    ],
    ['else the error message', [500, { detail: 'Internal server error' }], 'Request failed with status code 500'],
    ["else 'Error updating brand'", () => Promise.reject(new Error('')), 'Error updating brand'],
  ])('a failed update toasts %s and keeps the unsaved list', async (_case, reply, shown) => {
    await renderPage();
    api.on('POST api/whitelable/', reply);
    await openEditor('Acme');
    await addThroughSearch('Acme', 'sony', 'Sony Group Corporation');
    await userEvent.click(within(editor('Acme')).getByRole('button', { name: 'Update Changes DB' }));
    expect(await screen.findByText(shown)).toBeInTheDocument();
    expect(listed('Acme')).toEqual(['Apple, Inc.', 'Sony Group Corporation']);
    expect(saveButtons('Acme')).toHaveLength(2);
  });

  test('the buttons are marked unavailable while the update runs, Update keeping the focus and taking no second press (docs/screens.md#buttons)', async () => {
    await renderPage();
    let answer: (reply: [number, unknown]) => void = () => {};
    api.on('POST api/whitelable/', () => new Promise((resolve) => (answer = resolve)));
    await openEditor('Acme');
    await userEvent.click(within(editor('Acme')).getByRole('button', { name: 'Remove Apple, Inc.' }));
    await userEvent.click(within(editor('Acme')).getByRole('button', { name: 'Update Changes DB' }));
    saveButtons('Acme').forEach((button) => expect(button).toHaveAttribute('aria-disabled', 'true'));
    const update = within(editor('Acme')).getByRole('button', { name: 'Update Changes DB' });
    expect(update).toHaveFocus();
    await userEvent.click(update);
    expect(api.requestsTo('POST api/whitelable/')).toHaveLength(1);
    await act(async () => answer([200, {}]));
    expect(saveButtons('Acme')).toHaveLength(0);
  });
});
