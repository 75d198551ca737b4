// The Integrations page's webhook endpoints (docs/screens.md#integrations): the table and the notice
// of endpoints the server disabled, the add form's checks and the server's refusals, the secret shown
// once (added or rotated), the row's actions, and the delivery log with Redeliver, its filter, Load
// more and Replay. Calls answer at the http boundary (the shared client's adapter).
import { VeritasToaster, toast } from '@veritas/shared';
import type { WebhookDelivery, WebhookEndpoint, WebhookSecretAnswer } from '@veritas/shared/domain';
import { mockApi, mutationsKeep, withQueryClient, type MockApi, type MockReply } from '@veritas/shared/testing';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createQueryClient, type QueryClient } from '@veritas/shared/query';
import IntegrationsPage from './integrations-page';

const ENDPOINTS = 'api/integrations/endpoints/';

const ORDERS: WebhookEndpoint = {
  id: 5,
  url: 'https://orders.example.com/hooks',
  description: 'Order system',
  eventTypes: ['record.flagged', 'case.opened'],
  enabled: true,
  disabledReason: null,
  disabledAt: null,
  failingSince: null,
  previousSecretExpiresAt: null,
  createdBy: 'asha',
  createdAt: '2026-03-01T08:00:00.000Z',
};
const GONE: WebhookEndpoint = {
  ...ORDERS,
  id: 4,
  url: 'https://old.example.com/in',
  description: '',
  eventTypes: ['shipment.ingested'],
  enabled: false,
  disabledReason: 'gone',
  disabledAt: '2026-03-04T10:00:00.000Z',
};
const FAILING: WebhookEndpoint = {
  ...ORDERS,
  id: 3,
  url: 'https://flaky.example.com/in',
  enabled: false,
  disabledReason: 'failing',
  failingSince: '2026-02-20T10:00:00.000Z',
  disabledAt: '2026-02-25T10:00:00.000Z',
};
const PAUSED: WebhookEndpoint = {
  ...ORDERS,
  id: 2,
  url: 'https://paused.example.com/in',
  enabled: false,
  disabledReason: 'admin',
};

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const NEW_SECRET = 'whsec_2cNqOQ0f1WlS8v1CVpz1Tt0sp4E2bdAa';

const attempt = (status: number | null, response = 'ok') => ({
  at: '2026-03-05T09:00:01.000Z',
  status,
  latencyMs: 42,
  response,
});
const DELIVERED: WebhookDelivery = {
  id: 31,
  messageId: 'msg_120_0',
  type: 'case.opened',
  createdAt: '2026-03-05T09:00:00.000Z',
  state: 'succeeded',
  nextAttemptAt: null,
  attempts: [attempt(200, '{"received":true}'), attempt(500, 'Internal Server Error')],
};
const FAILED: WebhookDelivery = {
  id: 30,
  messageId: 'msg_118_0',
  type: 'record.flagged',
  createdAt: '2026-03-04T09:00:00.000Z',
  state: 'failed',
  nextAttemptAt: null,
  attempts: [attempt(null, 'connect ECONNREFUSED 203.0.113.9:443')],
};
const OLDER: WebhookDelivery = { ...DELIVERED, id: 12, messageId: 'msg_40_0' };

let api: MockApi;
let confirmSpy: jest.SpyInstance<boolean, [message?: string]>;

beforeEach(() => {
  confirmSpy = jest.spyOn(window, 'confirm').mockReturnValue(true);
});
afterEach(() => {
  api.restore();
  confirmSpy.mockRestore();
  act(() => toast.remove());
});

/** The page's query client, to see what it keeps. */
let client: QueryClient;

/** Renders the page: GET of the endpoints answers `endpoints` as it is at each call, or the reply given. */
async function renderPage(endpoints: (() => WebhookEndpoint[]) | MockReply = () => [ORDERS]) {
  client = createQueryClient();
  api = mockApi()
    .on('GET api/integrations/keys/', [200, { tokens: [] }])
    .on(`GET ${ENDPOINTS}`, Array.isArray(endpoints) ? endpoints : () => [200, { endpoints: endpoints() }]);
  const user = userEvent.setup();
  render(
    <>
      <IntegrationsPage />
      <VeritasToaster />
    </>,
    { wrapper: withQueryClient(client) },
  );
  await waitFor(() => expect(screen.queryByText('Loading webhook endpoints…')).not.toBeInTheDocument());
  return { user };
}

const section = () => screen.getByRole('region', { name: 'Webhook endpoints' });
const table = () => within(section()).getByRole('table', { name: 'Webhook endpoints' });
const rowOf = (url: string) => within(table()).getByRole('rowheader', { name: url }).closest('tr')!;
/** A row's cells after its URL: Events, Description, Status, Failing since, Created by, Actions. */
const cells = (url: string) =>
  within(rowOf(url))
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
const form = () => within(section()).getByRole('form', { name: 'Add a webhook endpoint' });
const posts = (path: string) => api.requestsTo(`POST ${ENDPOINTS}${path}`);

describe('the endpoints', () => {
  test('the table lists each endpoint: its events by their labels, its status, failing streak and creator', async () => {
    await renderPage(() => [ORDERS, GONE, FAILING, PAUSED]);
    expect(within(section()).getByRole('heading', { level: 2, name: 'Webhook endpoints' })).toBeInTheDocument();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['URL', 'Events', 'Description', 'Status', 'Failing since', 'Created by', 'Actions']);
    const [events, description, status, failingSince, createdBy] = cells(ORDERS.url);
    expect(events).toBe('Record flagged at the doorstep, Case opened');
    expect(description).toBe('Order system');
    expect(status).toBe('Enabled');
    expect(failingSince).toBe('—');
    expect(createdBy).toMatch(/^asha on \d\d\/\d\d\/2026/);

    expect(cells(GONE.url)[1]).toBe('—');
    expect(cells(GONE.url)[2]).toMatch(/^Disabled: the endpoint answered 410 Gone on 03\/04\/2026/);
    expect(cells(FAILING.url)[2]).toMatch(/^Disabled: failing since 02\/2\d\/2026, .* on 02\/25\/2026/);
    expect(cells(FAILING.url)[3]).toMatch(/^02\/2\d\/2026/);
    expect(cells(PAUSED.url)[2]).toBe('Disabled by an admin');

    const actions = within(rowOf(ORDERS.url))
      .getAllByRole('button')
      .map((button) => button.textContent);
    expect(actions).toEqual([
      `Edit ${ORDERS.url}`,
      `Disable ${ORDERS.url}`,
      `Rotate secret of ${ORDERS.url}`,
      `Send test event to ${ORDERS.url}`,
      `Delete ${ORDERS.url}`,
      `Delivery log of ${ORDERS.url}`,
    ]);
    expect(within(rowOf(PAUSED.url)).getByRole('button', { name: `Enable ${PAUSED.url}` })).toBeInTheDocument();
  });

  test('the endpoints the server disabled are named in a notice at the top of the section', async () => {
    await renderPage(() => [ORDERS, GONE, FAILING, PAUSED]);
    const notice = within(section()).getAllByRole('status')[0]!;
    expect(notice).toHaveTextContent(
      /^2 endpoints disabled by the server: https:\/\/old\.example\.com\/in \(the endpoint answered 410 Gone\); https:\/\/flaky\.example\.com\/in \(failing since 02\/2\d\/2026, .*\)\. Check the receiver, then enable the endpoint again/,
    );
    // Before the form and the table: the first thing read of the section after its introduction.
    expect(notice.compareDocumentPosition(form()) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  test('no notice while the server disabled none', async () => {
    await renderPage(() => [ORDERS, PAUSED]);
    expect(within(section()).queryByText(/disabled by the server/)).not.toBeInTheDocument();
  });

  test('no endpoints: the table says so', async () => {
    await renderPage(() => []);
    expect(within(table()).getByText('No webhook endpoints yet.')).toBeInTheDocument();
  });

  test('a list that cannot be loaded says why, and Retry asks again', async () => {
    const { user } = await renderPage([500, {}]);
    expect(within(table()).getByRole('alert')).toHaveTextContent('Failed to load the webhook endpoints');
    api.on(`GET ${ENDPOINTS}`, [200, { endpoints: [ORDERS] }]);
    await user.click(within(section()).getByRole('button', { name: 'Retry' }));
    expect(await within(table()).findByRole('rowheader', { name: ORDERS.url })).toBeInTheDocument();
    expect(within(section()).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  test("a 403 says the server's message", async () => {
    await renderPage([403, { detail: 'Only an admin may manage integrations.' }]);
    expect(within(table()).getByRole('alert')).toHaveTextContent('Only an admin may manage integrations.');
  });
});

describe('adding an endpoint', () => {
  test("the form is checked against the call's schema first: each fault on its field, nothing sent", async () => {
    const { user } = await renderPage();
    await user.click(within(form()).getByRole('button', { name: 'Add endpoint' }));

    const url = within(form()).getByLabelText('URL');
    expect(url).toHaveAccessibleDescription(/Give the address the events are sent to\.$/);
    expect(url).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(url).toHaveFocus());
    const events = within(form()).getByRole('group', { name: 'Events: what the endpoint receives' });
    expect(events).toHaveAccessibleDescription('Choose the events the endpoint receives.');
    expect(posts('')).toHaveLength(0);
  });

  test('an address without http:// or https:// and a host is a fault on its field before anything is sent', async () => {
    const { user } = await renderPage();
    await user.click(within(form()).getByRole('checkbox', { name: /Case opened/ }));
    const url = within(form()).getByLabelText('URL');
    for (const typed of ['orders.example.com/hooks', 'ftp://orders.example.com/', 'https:///hooks']) {
      await user.clear(url);
      await user.type(url, typed);
      await user.click(within(form()).getByRole('button', { name: 'Add endpoint' }));
      expect(url).toHaveAccessibleDescription(/The address must be a URL such as https:\/\/example\.com\/webhooks\.$/);
      expect(url).toHaveAttribute('aria-invalid', 'true');
    }
    expect(posts('')).toHaveLength(0);
  });

  test("a 400 shows the server's message on the field it names, and the form can be sent again", async () => {
    const { user } = await renderPage();
    api.on(`POST ${ENDPOINTS}`, [
      400,
      { detail: 'example.test resolves to 10.0.0.5, a private address: refused.', field: 'url' },
    ]);
    await user.type(within(form()).getByLabelText('URL'), 'https://example.test/hook');
    await user.click(within(form()).getByRole('checkbox', { name: /Case opened/ }));
    await user.click(within(form()).getByRole('button', { name: 'Add endpoint' }));

    const url = within(form()).getByLabelText('URL');
    await waitFor(() =>
      expect(url).toHaveAccessibleDescription(/example\.test resolves to 10\.0\.0\.5, a private address: refused\./),
    );
    await waitFor(() => expect(url).toHaveFocus());
    expect(url).toHaveValue('https://example.test/hook');
    expect(within(section()).queryByRole('region', { name: /^Secret of the endpoint/ })).not.toBeInTheDocument();
    await user.click(within(form()).getByRole('button', { name: 'Add endpoint' }));
    await waitFor(() => expect(posts('')).toHaveLength(2));
  });

  test('posts the chosen events in their order and shows the secret once; Done removes it for good', async () => {
    let endpoints = [ORDERS];
    const added: WebhookEndpoint = {
      ...ORDERS,
      id: 9,
      url: 'https://crm.example.com/veritas',
      description: 'CRM',
      eventTypes: ['record.submitted', 'case.resolved'],
    };
    const { user } = await renderPage(() => endpoints);
    api.on(`POST ${ENDPOINTS}`, () => {
      endpoints = [added, ORDERS];
      return [201, { endpoint: added, secret: SECRET } satisfies WebhookSecretAnswer];
    });

    await user.type(within(form()).getByLabelText('URL'), ' https://crm.example.com/veritas ');
    await user.type(within(form()).getByLabelText('Description'), 'CRM');
    await user.click(within(form()).getByRole('checkbox', { name: /Case resolved/ }));
    await user.click(within(form()).getByRole('checkbox', { name: /Record submitted at the doorstep/ }));
    expect(within(form()).getByRole('checkbox', { name: 'Enabled' })).toBeChecked();
    await user.click(within(form()).getByRole('button', { name: 'Add endpoint' }));

    const secret = await within(section()).findByLabelText(`Secret of ${added.url}`);
    expect(posts('').map((request) => request.body)).toEqual([
      {
        url: 'https://crm.example.com/veritas',
        description: 'CRM',
        eventTypes: ['record.submitted', 'case.resolved'],
        enabled: true,
      },
    ]);
    expect(secret).toHaveValue(SECRET);
    expect(secret).toHaveAttribute('readonly');
    expect(secret).toHaveFocus();
    expect(secret).toHaveAccessibleDescription(/^Copy this secret now: it is shown once\./);
    const panel = within(section()).getByRole('region', { name: `Secret of the endpoint ${added.url}` });
    expect(panel).not.toHaveTextContent('old secret');

    expect(await within(table()).findByRole('rowheader', { name: added.url })).toBeInTheDocument();
    expect(within(form()).getByLabelText('URL')).toHaveValue('');

    await user.click(within(panel).getByRole('button', { name: 'Copy' }));
    await expect(navigator.clipboard.readText()).resolves.toBe(SECRET);
    await user.click(within(panel).getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
    await waitFor(() => expect(mutationsKeep(client, SECRET)).toBe(false));
    expect(within(form()).getByLabelText('URL')).toHaveFocus();
  });
});

describe("an endpoint's actions", () => {
  test('Rotate secret asks first, then shows the new secret once and until when the old one signs too', async () => {
    const rotated = { ...ORDERS, previousSecretExpiresAt: '2026-03-06T12:00:00.000Z' };
    let endpoints = [ORDERS];
    const { user } = await renderPage(() => endpoints);
    api.on(`POST ${ENDPOINTS}5/rotate/`, () => {
      endpoints = [rotated];
      return [200, { endpoint: rotated, secret: NEW_SECRET }];
    });

    confirmSpy.mockReturnValueOnce(false);
    await user.click(within(rowOf(ORDERS.url)).getByRole('button', { name: `Rotate secret of ${ORDERS.url}` }));
    expect(posts('5/rotate/')).toHaveLength(0);

    await user.click(within(rowOf(ORDERS.url)).getByRole('button', { name: `Rotate secret of ${ORDERS.url}` }));
    expect(confirmSpy).toHaveBeenLastCalledWith(
      `Rotate the secret of ${ORDERS.url}? A new secret signs its messages from now on; the current one signs beside it for 24 hours, time to change it on the receiver.`,
    );
    const secret = await within(section()).findByLabelText(`New secret of ${ORDERS.url}`);
    expect(secret).toHaveValue(NEW_SECRET);
    expect(secret).toHaveFocus();
    expect(posts('5/rotate/')[0]!.body).toBeUndefined();
    const panel = within(section()).getByRole('region', { name: `Secret of the endpoint ${ORDERS.url}` });
    expect(panel).toHaveTextContent(/The old secret signs too until 03\/06\/2026, \d\d:00 [AP]M/);
    expect(secret).toHaveAccessibleDescription(/The old secret signs too until/);

    await user.click(within(panel).getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue(NEW_SECRET)).not.toBeInTheDocument();
    await waitFor(() => expect(mutationsKeep(client, NEW_SECRET)).toBe(false));
    expect(within(rowOf(ORDERS.url)).getByRole('button', { name: `Rotate secret of ${ORDERS.url}` })).toHaveFocus();
  });

  test('Send test event toasts the queued message id', async () => {
    const { user } = await renderPage();
    api.on(`POST ${ENDPOINTS}5/test/`, [202, { messageId: 'msg_test_0d9f' }]);
    await user.click(within(rowOf(ORDERS.url)).getByRole('button', { name: `Send test event to ${ORDERS.url}` }));
    expect(await screen.findByText(`Test event queued for ${ORDERS.url}: message msg_test_0d9f.`)).toBeInTheDocument();
  });

  test('Disable sends the endpoint as it is with enabled false, and says so', async () => {
    let endpoints = [ORDERS];
    const { user } = await renderPage(() => endpoints);
    api.on(`POST ${ENDPOINTS}5/`, (request) => {
      const changed = { ...ORDERS, enabled: false, disabledReason: 'admin' };
      endpoints = [changed];
      return [200, { ...changed, ...(request.body as object) }];
    });
    await user.click(within(rowOf(ORDERS.url)).getByRole('button', { name: `Disable ${ORDERS.url}` }));
    expect(await within(section()).findByText(`The endpoint ${ORDERS.url} is disabled.`)).toHaveAttribute(
      'role',
      'status',
    );
    expect(posts('5/')[0]!.body).toEqual({
      url: ORDERS.url,
      description: 'Order system',
      eventTypes: ['record.flagged', 'case.opened'],
      enabled: false,
    });
    await waitFor(() => expect(cells(ORDERS.url)[2]).toBe('Disabled by an admin'));
    expect(within(rowOf(ORDERS.url)).getByRole('button', { name: `Enable ${ORDERS.url}` })).toBeInTheDocument();
  });

  test('a failed action says why, and its button works again', async () => {
    const { user } = await renderPage();
    api.on(`POST ${ENDPOINTS}5/test/`, [404, { detail: 'No endpoint has that id.' }]);
    const button = within(rowOf(ORDERS.url)).getByRole('button', { name: `Send test event to ${ORDERS.url}` });
    await user.click(button);
    expect(await within(section()).findByRole('alert')).toHaveTextContent('No endpoint has that id.');
    expect(button).not.toHaveAttribute('aria-disabled');
    expect(button).toHaveFocus();
  });

  test("while a row's call runs its buttons are marked unavailable and take no press; the pressed one keeps the focus", async () => {
    const { user } = await renderPage();
    let answer!: (reply: MockReply) => void;
    api.on(`POST ${ENDPOINTS}5/test/`, () => new Promise<MockReply>((resolve) => (answer = resolve)));
    const row = within(rowOf(ORDERS.url));
    const send = row.getByRole('button', { name: `Send test event to ${ORDERS.url}` });
    await user.click(send);
    await waitFor(() => expect(send).toHaveTextContent('Sending test event…'));
    const rotate = row.getByRole('button', { name: `Rotate secret of ${ORDERS.url}` });
    for (const button of [send, rotate, row.getByRole('button', { name: `Disable ${ORDERS.url}` })]) {
      expect(button).toHaveAttribute('aria-disabled', 'true');
      expect(button).toBeEnabled();
    }
    expect(send).toHaveFocus();
    await user.click(rotate);
    await user.click(send);
    expect(confirmSpy).not.toHaveBeenCalled();
    expect(posts('5/test/')).toHaveLength(1);
    act(() => answer([202, { messageId: 'msg_test_0d9f' }]));
    await waitFor(() => expect(rotate).not.toHaveAttribute('aria-disabled'));
  });

  test('Delete asks first, then deletes and says so in the status line, which takes the focus', async () => {
    let endpoints = [ORDERS, PAUSED];
    const { user } = await renderPage(() => endpoints);
    api.on(`POST ${ENDPOINTS}5/delete/`, () => {
      endpoints = [PAUSED];
      return [200, { message: 'The endpoint is deleted.' }];
    });
    await user.click(within(rowOf(ORDERS.url)).getByRole('button', { name: `Delete ${ORDERS.url}` }));
    expect(confirmSpy).toHaveBeenCalledWith(
      `Delete the endpoint ${ORDERS.url}? It receives no more events, and its delivery log is deleted with it. This cannot be undone.`,
    );
    const status = await within(section()).findByText(`The endpoint ${ORDERS.url} is deleted.`);
    expect(status).toHaveFocus();
    await waitFor(() => expect(within(table()).queryByRole('rowheader', { name: ORDERS.url })).not.toBeInTheDocument());
  });

  test('Edit opens the same form prefilled in a dialog; saving posts the endpoint and closes it', async () => {
    const { user } = await renderPage();
    api.on(`POST ${ENDPOINTS}5/`, (request) => [200, { ...ORDERS, ...(request.body as object) }]);
    await user.click(within(rowOf(ORDERS.url)).getByRole('button', { name: `Edit ${ORDERS.url}` }));
    const dialog = screen.getByRole('dialog', { name: 'Edit endpoint' });
    const edit = within(dialog).getByRole('form', { name: `Edit the endpoint ${ORDERS.url}` });
    expect(within(edit).getByLabelText('URL')).toHaveValue(ORDERS.url);
    expect(within(edit).getByLabelText('URL')).toHaveFocus();
    expect(within(edit).getByRole('checkbox', { name: /Case opened/ })).toBeChecked();
    expect(within(edit).getByRole('checkbox', { name: /Case resolved/ })).not.toBeChecked();

    await user.clear(within(edit).getByLabelText('Description'));
    await user.type(within(edit).getByLabelText('Description'), 'Orders, v2');
    await user.click(within(edit).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts('5/')[0]!.body).toEqual({
      url: ORDERS.url,
      description: 'Orders, v2',
      eventTypes: ['record.flagged', 'case.opened'],
      enabled: true,
    });
    expect(within(section()).getByText(`The endpoint ${ORDERS.url} is saved.`)).toBeInTheDocument();
  });
});

describe('the delivery log', () => {
  const LOG = `GET ${ENDPOINTS}5/deliveries/`;

  async function openLog(
    reply: MockReply | (() => MockReply) = [200, { deliveries: [DELIVERED, FAILED], next: null }],
  ) {
    const rendered = await renderPage();
    api.on(LOG, typeof reply === 'function' ? reply : () => reply);
    await rendered.user.click(within(rowOf(ORDERS.url)).getByRole('button', { name: `Delivery log of ${ORDERS.url}` }));
    const log = within(section()).getByRole('region', { name: `Delivery log of ${ORDERS.url}` });
    await waitFor(() => expect(within(log).queryByText('Loading deliveries…')).not.toBeInTheDocument());
    return { ...rendered, log };
  }
  const logTable = (log: HTMLElement) => within(log).getByRole('table', { name: `Deliveries to ${ORDERS.url}` });
  const deliveryRow = (log: HTMLElement, messageId: string) =>
    within(logTable(log)).getByRole('rowheader', { name: messageId }).closest('tr')!;

  test('lists the deliveries newest first, each with its state and last attempt; attempts expand', async () => {
    const { user, log } = await openLog();
    expect(within(log).getByRole('heading', { level: 3, name: `Delivery log of ${ORDERS.url}` })).toHaveFocus();
    expect(
      within(logTable(log))
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Message', 'Type', 'Created', 'State', 'Next attempt', 'Last attempt', 'Actions']);
    expect(
      within(logTable(log))
        .getAllByRole('rowheader')
        .map((header) => header.textContent),
    ).toEqual(['msg_120_0', 'msg_118_0']);
    const [type, , state, next, last] = within(deliveryRow(log, 'msg_120_0'))
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect([type, state, next]).toEqual(['Case opened', 'Succeeded', '—']);
    expect(last).toMatch(/^200 · 42 ms.*\{"received":true\}$/);
    expect(within(deliveryRow(log, 'msg_118_0')).getAllByRole('cell')[4]).toHaveTextContent(
      /^No answer · 42 ms.*connect ECONNREFUSED/,
    );
    const request = api.requestsTo(LOG)[0]!;
    expect(request.config.params).toEqual({ state: undefined, after: undefined, limit: '25' });

    const toggle = within(deliveryRow(log, 'msg_120_0')).getByRole('button', { name: 'Attempts (2) of msg_120_0' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const attempts = within(log).getByRole('table', { name: 'Attempts of msg_120_0' });
    expect(
      within(attempts)
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[0]!.textContent),
    ).toEqual(['200', '500']);
    expect(attempts).toHaveTextContent('Internal Server Error');
  });

  test('Redeliver posts for that delivery, toasts, and reads the log again', async () => {
    const { user, log } = await openLog();
    api.on('POST api/integrations/deliveries/30/redeliver/', [
      200,
      { message: 'The message will be delivered again.' },
    ]);
    await user.click(within(deliveryRow(log, 'msg_118_0')).getByRole('button', { name: 'Redeliver msg_118_0' }));
    expect(await screen.findByText('The message msg_118_0 will be delivered again.')).toBeInTheDocument();
    expect(api.requestsTo('POST api/integrations/deliveries/30/redeliver/')).toHaveLength(1);
    await waitFor(() => expect(api.requestsTo(LOG)).toHaveLength(2));
  });

  test('a failed redelivery says why in the log', async () => {
    const { user, log } = await openLog();
    api.on('POST api/integrations/deliveries/30/redeliver/', [404, { detail: 'No delivery has that id.' }]);
    await user.click(within(deliveryRow(log, 'msg_118_0')).getByRole('button', { name: 'Redeliver msg_118_0' }));
    expect(await within(log).findByRole('alert')).toHaveTextContent('No delivery has that id.');
  });

  test('filters by state, and Load more reads the page after with next', async () => {
    const { user, log } = await openLog((): MockReply => {
      const { state, after } = api.requestsTo(LOG).at(-1)!.config.params as { state?: string; after?: string };
      if (state === 'failed') return [200, { deliveries: [FAILED], next: null }];
      if (after === '30') return [200, { deliveries: [OLDER], next: null }];
      return [200, { deliveries: [DELIVERED, FAILED], next: '30' }];
    });
    await user.click(within(log).getByRole('button', { name: 'Load more' }));
    await within(logTable(log)).findByRole('rowheader', { name: 'msg_40_0' });
    expect(api.requestsTo(LOG).at(-1)!.config.params).toMatchObject({ after: '30' });
    expect(within(log).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();

    await user.selectOptions(within(log).getByLabelText('State'), 'Failed');
    await waitFor(() =>
      expect(
        within(logTable(log))
          .getAllByRole('rowheader')
          .map((header) => header.textContent),
      ).toEqual(['msg_118_0']),
    );
    expect(api.requestsTo(LOG).at(-1)!.config.params).toMatchObject({ state: 'failed', after: undefined });
  });

  test('Replay failed since posts that instant and toasts how many go again', async () => {
    const { user, log } = await openLog();
    api.on(`POST ${ENDPOINTS}5/replay/`, [200, { replayed: 3 }]);
    const replay = within(log).getByRole('form', { name: `Replay failed deliveries to ${ORDERS.url}` });
    await user.click(within(replay).getByRole('button', { name: 'Replay failed' }));
    expect(within(replay).getByLabelText('Replay failed since')).toHaveAccessibleDescription(
      /Choose the time to replay from\.$/,
    );
    expect(posts('5/replay/')).toHaveLength(0);

    fireEvent.change(within(replay).getByLabelText('Replay failed since'), { target: { value: '2026-03-01T09:30' } });
    await user.click(within(replay).getByRole('button', { name: 'Replay failed' }));
    expect(await screen.findByText('3 messages will be delivered again.')).toBeInTheDocument();
    expect(posts('5/replay/')[0]!.body).toEqual({ since: new Date('2026-03-01T09:30').toISOString() });
  });

  test('a log that cannot be loaded says why, and Retry asks again', async () => {
    let fail = true;
    const { user, log } = await openLog(() => (fail ? [500, {}] : [200, { deliveries: [DELIVERED], next: null }]));
    expect(within(logTable(log)).getByRole('alert')).toHaveTextContent('Failed to load the deliveries');
    fail = false;
    await user.click(within(log).getByRole('button', { name: 'Retry' }));
    expect(await within(logTable(log)).findByRole('rowheader', { name: 'msg_120_0' })).toBeInTheDocument();
  });

  test('Close gives the focus back to the row’s Delivery log button', async () => {
    const { user, log } = await openLog();
    await user.click(within(log).getByRole('button', { name: 'Close the delivery log' }));
    expect(within(section()).queryByRole('region', { name: /^Delivery log of/ })).not.toBeInTheDocument();
    const button = within(rowOf(ORDERS.url)).getByRole('button', { name: `Delivery log of ${ORDERS.url}` });
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });
});
