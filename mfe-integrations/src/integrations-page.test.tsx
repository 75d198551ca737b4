// The Integrations page (route /Integrations, docs/screens.md#integrations): the API keys' table,
// creating a key and its secret shown once, the form's checks and the server's refusals, revoking
// after the browser's confirmation. Calls answer at the http boundary (the shared client's adapter).
import type { AccessToken, CreatedToken } from '@veritas/shared';
import { mockApi, mutationsKeep, withQueryClient, type MockApi, type MockReply } from '@veritas/shared/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createQueryClient, type QueryClient } from '@veritas/shared/query';
import IntegrationsPage, { TITLE } from './integrations-page';

const KEYS = 'api/integrations/keys/';

const ORDERS: AccessToken = {
  id: 3,
  label: 'Order system',
  scope: 'shipments:write records:read',
  expiresAt: '2099-07-01T00:00:00.000Z',
  createdBy: 'asha',
  createdAt: '2026-03-01T08:00:00.000Z',
  revokedAt: null,
  lastUsedAt: null,
};
const HELPDESK: AccessToken = {
  ...ORDERS,
  id: 2,
  label: 'Helpdesk',
  scope: 'cases:read cases:write',
  lastUsedAt: '2026-03-04T10:30:00.000Z',
};
const OLD: AccessToken = { ...ORDERS, id: 1, label: 'Old feed', expiresAt: '2026-01-01T00:00:00.000Z' };
const GONE: AccessToken = {
  ...ORDERS,
  id: 4,
  label: 'Retired pipe',
  scope: 'records:read',
  revokedAt: '2026-03-05T09:00:00.000Z',
};

const SECRET = 'vrt_8_0f1e2d3c4b5a69788796a5b4c3d2e1f0';

let api: MockApi;
let confirmSpy: jest.SpyInstance<boolean, [message?: string]>;

beforeEach(() => {
  confirmSpy = jest.spyOn(window, 'confirm').mockReturnValue(true);
});
afterEach(() => {
  api.restore();
  confirmSpy.mockRestore();
});

/** The page's query client, to see what it keeps. */
let client: QueryClient;

/** Renders the page: GET answers `keys` as it is at each call, or the reply given. */
async function renderPage(keys: (() => AccessToken[]) | MockReply = () => [ORDERS, HELPDESK, OLD, GONE]) {
  client = createQueryClient();
  api = mockApi()
    .on(`GET ${KEYS}`, Array.isArray(keys) ? keys : () => [200, { tokens: keys() }])
    // The webhook endpoints below the keys (webhooks-section.test.tsx).
    .on('GET api/integrations/endpoints/', [200, { endpoints: [] }]);
  const user = userEvent.setup();
  render(<IntegrationsPage />, { wrapper: withQueryClient(client) });
  await waitFor(() => expect(screen.queryByText('Loading API keys…')).not.toBeInTheDocument());
  return { user };
}

const section = () => screen.getByRole('region', { name: 'API keys' });
const table = () => within(section()).getByRole('table', { name: 'API keys' });
const rowOf = (label: string) => within(table()).getByRole('rowheader', { name: label }).closest('tr')!;
/** A row's cells after its label: Scopes, Valid through, Last used, Created by, Status. */
const cells = (label: string) =>
  within(rowOf(label))
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
const form = () => within(section()).getByRole('form', { name: 'Create an API key' });
const gets = () => api.requestsTo(`GET ${KEYS}`);
const creates = () => api.requestsTo(`POST ${KEYS}`);

async function fillForm(user: ReturnType<typeof userEvent.setup>, label: string, scopes: string[], expiresOn?: string) {
  await user.type(within(form()).getByLabelText('Label'), label);
  for (const scope of scopes) await user.click(within(form()).getByRole('checkbox', { name: new RegExp(scope) }));
  if (expiresOn !== undefined) {
    await user.clear(within(form()).getByLabelText('Expires on'));
    await user.type(within(form()).getByLabelText('Expires on'), expiresOn);
  }
}

describe('the keys', () => {
  test('the page is named by its heading, its section API keys', async () => {
    await renderPage();
    expect(screen.getByRole('heading', { level: 1, name: TITLE })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: TITLE })).toBeInTheDocument();
    expect(within(section()).getByRole('heading', { level: 2, name: 'API keys' })).toBeInTheDocument();
  });

  test('the table lists each key with its scopes by label, Never for a key not used yet, and its status', async () => {
    await renderPage();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Label', 'Scopes', 'Valid through', 'Last used', 'Created by', 'Status']);
    expect(
      within(table())
        .getAllByRole('rowheader')
        .map((header) => header.textContent),
    ).toEqual(['Order system', 'Helpdesk', 'Old feed', 'Retired pipe']);

    const [scopes, validThrough, lastUsed, createdBy] = cells('Order system');
    // The last valid day and the end, in UTC whatever the browser's zone.
    expect(validThrough).toBe('30 Jun 2099 until 1 Jul 2099, 00:00 UTC');
    expect(scopes).toBe('Send shipments, Read records');
    expect(lastUsed).toBe('Never');
    expect(createdBy).toMatch(/^asha/);
    expect(cells('Helpdesk')[0]).toBe('Read cases, Resolve cases');
    expect(cells('Helpdesk')[2]).not.toBe('Never');
    expect(within(rowOf('Order system')).getByRole('button', { name: 'Revoke the key Order system' })).toBeEnabled();

    expect(cells('Old feed')[4]).toBe('Expired');
    expect(cells('Retired pipe')[4]).toMatch(/^Revoked \d\d\/\d\d\/2026/);
    expect(within(rowOf('Old feed')).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rowOf('Retired pipe')).queryByRole('button')).not.toBeInTheDocument();
  });

  test('no keys: the table says so', async () => {
    await renderPage(() => []);
    expect(within(table()).getByText('No API keys yet.')).toBeInTheDocument();
  });

  test('a list that cannot be loaded says why in the table, as an alert', async () => {
    await renderPage([403, { detail: 'Only an admin may manage integrations.' }]);
    expect(within(table()).getByRole('alert')).toHaveTextContent('Only an admin may manage integrations.');
  });
});

describe('creating a key', () => {
  test('the expiry is 90 days from today (UTC) unless chosen otherwise, and no earlier than today', async () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-03-10T22:00:00Z'));
    try {
      await renderPage();
      const expiry = within(form()).getByLabelText('Expires on');
      expect(expiry).toHaveValue('2026-06-08');
      expect(expiry).toHaveAttribute('min', '2026-03-10');
      expect(expiry).toHaveAccessibleDescription('The key works through the end of that day in UTC.');
      expect(within(form()).getByRole('group', { name: 'Scopes: what the key may call' })).toBeInTheDocument();
    } finally {
      now.mockRestore();
    }
  });

  test('posts the chosen scopes and shows the secret once, read-only, with Copy; Done removes it for good', async () => {
    let tokens = [ORDERS];
    const created: CreatedToken = {
      token: { ...ORDERS, id: 8, label: 'Returns portal', scope: 'records:read cases:read' },
      secret: SECRET,
    };
    const { user } = await renderPage(() => tokens);
    api.on(`POST ${KEYS}`, () => {
      tokens = [created.token, ORDERS];
      return [201, created];
    });

    // Chosen out of order: sent in the order of the scopes' list.
    await fillForm(user, '  Returns portal ', ['Read cases', 'Read records'], '2099-06-30');
    await user.click(within(form()).getByRole('button', { name: 'Create key' }));

    const secret = await within(section()).findByLabelText('Secret of Returns portal');
    expect(creates().map((request) => request.body)).toEqual([
      { label: 'Returns portal', scopes: ['records:read', 'cases:read'], expiresOn: '2099-06-30' },
    ]);
    expect(secret).toHaveValue(SECRET);
    expect(secret).toHaveAttribute('readonly');
    expect(secret).toHaveFocus();
    expect(secret).toHaveAccessibleDescription(/Copy this secret now: it is shown once\./);
    const panel = within(section()).getByRole('region', { name: 'Secret of the key Returns portal' });
    expect(panel).toHaveTextContent('Copy this secret now: it is shown once.');

    // The list is read again and shows the new key; the form is empty for the next one.
    await waitFor(() => expect(gets()).toHaveLength(2));
    expect(await within(table()).findByRole('rowheader', { name: 'Returns portal' })).toBeInTheDocument();
    expect(within(form()).getByLabelText('Label')).toHaveValue('');
    expect(within(form()).getByRole('checkbox', { name: /Read cases/ })).not.toBeChecked();

    await user.click(within(panel).getByRole('button', { name: 'Copy' }));
    await expect(navigator.clipboard.readText()).resolves.toBe(SECRET);
    expect(panel).toHaveTextContent('Copied to the clipboard.');

    await user.click(within(panel).getByRole('button', { name: 'Done' }));
    expect(document.body).not.toHaveTextContent(SECRET);
    expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
    expect(within(form()).getByLabelText('Label')).toHaveFocus();
    await waitFor(() => expect(mutationsKeep(client, SECRET)).toBe(false));
  });

  test('the form, the secret and Done work from the keyboard alone', async () => {
    const { user } = await renderPage();
    api.on(`POST ${KEYS}`, [201, { token: { ...ORDERS, id: 9, label: 'Kiosk', scope: 'cases:read' }, secret: SECRET }]);

    await user.tab();
    expect(within(form()).getByLabelText('Label')).toHaveFocus();
    await user.keyboard('Kiosk');
    await user.tab();
    await user.tab();
    await user.tab();
    expect(within(form()).getByRole('checkbox', { name: /Read cases/ })).toHaveFocus();
    await user.keyboard(' ');
    await user.tab();
    await user.tab();
    expect(within(form()).getByLabelText('Expires on')).toHaveFocus();
    await user.tab();
    expect(within(form()).getByRole('button', { name: 'Create key' })).toHaveFocus();
    await user.keyboard('{Enter}');

    expect(await within(section()).findByLabelText('Secret of Kiosk')).toHaveFocus();
    expect(creates().map((request) => (request.body as { scopes: string[] }).scopes)).toEqual([['cases:read']]);
    await user.tab();
    expect(within(section()).getByRole('button', { name: 'Copy' })).toHaveFocus();
    await user.tab();
    await user.keyboard('{Enter}');
    expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
    expect(within(form()).getByLabelText('Label')).toHaveFocus();
  });

  test("the form is checked against the call's schema first: each fault on its field, nothing sent", async () => {
    const { user } = await renderPage();
    api.on(`POST ${KEYS}`, [500, {}]);
    await user.type(within(form()).getByLabelText('Label'), '   ');
    await user.click(within(form()).getByRole('button', { name: 'Create key' }));

    const label = within(form()).getByLabelText('Label');
    expect(label).toHaveAccessibleDescription('Give the key a label.');
    expect(label).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(label).toHaveFocus());
    expect(within(form()).getByRole('group', { name: /Scopes/ })).toHaveAccessibleDescription(
      'Choose what the key may call.',
    );
    expect(creates()).toHaveLength(0);
  });

  test('a 400 shows its message on the field it names, and the button works again', async () => {
    const { user } = await renderPage();
    api.on(`POST ${KEYS}`, [400, { detail: 'The expiry must be today or later.', field: 'expiresOn' }]);
    await fillForm(user, 'Returns portal', ['Send shipments'], '2020-01-01');
    await user.click(within(form()).getByRole('button', { name: 'Create key' }));

    const expiry = within(form()).getByLabelText('Expires on');
    await waitFor(() => expect(expiry).toHaveAccessibleDescription(/The expiry must be today or later\./));
    expect(expiry).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(expiry).toHaveFocus());
    expect(within(form()).getByLabelText('Label')).not.toHaveAttribute('aria-invalid');
    expect(within(section()).queryByRole('region', { name: /^Secret of the key/ })).not.toBeInTheDocument();
    // Nothing was taken from the form: it can be corrected and sent again.
    expect(within(form()).getByLabelText('Label')).toHaveValue('Returns portal');
    const button = within(form()).getByRole('button', { name: 'Create key' });
    expect(button).not.toHaveAttribute('aria-disabled');
    await user.click(button);
    await waitFor(() => expect(creates()).toHaveLength(2));
  });

  test('another failure is said under the button, which is not left busy', async () => {
    const { user } = await renderPage();
    api.on(`POST ${KEYS}`, [500, {}]);
    await fillForm(user, 'Returns portal', ['Send shipments']);
    await user.click(within(form()).getByRole('button', { name: 'Create key' }));

    expect(await within(form()).findByRole('alert')).toHaveTextContent('The key could not be created.');
    const button = within(form()).getByRole('button', { name: 'Create key' });
    expect(button).not.toHaveAttribute('aria-disabled');
    expect(creates()).toHaveLength(1);
  });
});

describe('revoking a key', () => {
  test('asks the browser first, then posts without a body and reads the list again', async () => {
    let tokens = [ORDERS, HELPDESK];
    const { user } = await renderPage(() => tokens);
    api.on(`POST ${KEYS}3/revoke/`, () => {
      const revoked = { ...ORDERS, revokedAt: '2026-03-06T12:00:00.000Z' };
      tokens = [revoked, HELPDESK];
      return [200, revoked];
    });

    await user.click(within(rowOf('Order system')).getByRole('button', { name: 'Revoke the key Order system' }));
    expect(confirmSpy).toHaveBeenCalledWith(
      'Revoke the key "Order system" (Send shipments, Read records)? Systems using it can no longer call the API. This cannot be undone.',
    );
    await waitFor(() => expect(api.requestsTo(`POST ${KEYS}3/revoke/`)).toHaveLength(1));
    expect(api.requestsTo(`POST ${KEYS}3/revoke/`)[0]!.body).toBeUndefined();
    await waitFor(() => expect(gets()).toHaveLength(2));
    await waitFor(() => expect(cells('Order system')[4]).toMatch(/^Revoked /));
    const status = within(section()).getByText('The key Order system is revoked.');
    expect(status).toHaveAttribute('role', 'status');
    expect(status).toHaveFocus();
    expect(within(rowOf('Helpdesk')).getByRole('button', { name: 'Revoke the key Helpdesk' })).toBeInTheDocument();
  });

  test('a cancelled confirmation posts nothing', async () => {
    const { user } = await renderPage();
    confirmSpy.mockReturnValue(false);
    await user.click(within(rowOf('Order system')).getByRole('button', { name: 'Revoke the key Order system' }));
    expect(confirmSpy).toHaveBeenCalledTimes(1);
    expect(api.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
    expect(gets()).toHaveLength(1);
    expect(
      within(rowOf('Order system')).getByRole('button', { name: 'Revoke the key Order system' }),
    ).toHaveTextContent('Revoke');
  });

  test('a failed revocation says why, and the button can be used again', async () => {
    const { user } = await renderPage();
    api.on(`POST ${KEYS}3/revoke/`, [404, { detail: 'No key has that id.' }]);
    const button = within(rowOf('Order system')).getByRole('button', { name: 'Revoke the key Order system' });
    await user.click(button);
    expect(await within(section()).findByRole('alert')).toHaveTextContent('No key has that id.');
    expect(button).toHaveTextContent('Revoke');
    expect(button).not.toHaveAttribute('aria-disabled');
    expect(button).toHaveFocus();
  });
});
