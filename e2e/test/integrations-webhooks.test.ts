// docs/screens.md#integrations, docs/webhooks.md — in a real browser against the real server: an
// admin adds a webhook endpoint on the Integrations page, pointing at a receiver of this test, and
// reads its secret once; Send test event reaches the receiver as a `webhook.test` message whose
// signature the `standardwebhooks` package (the specification's own) verifies with that secret; the
// delivery log shows it succeeded with 200; after Rotate secret the next test event is signed with
// both the new secret and the old one.
//
// The server has its own instance here, started with VERITAS_WEBHOOKS_ALLOW_LOCAL=1: the suite's
// one refuses an http:// address on 127.0.0.1, as every production server does (docs/webhooks.md#safety).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { DEMO, freshPagePerTest, signIn } from '../support/browser';
import { startServer, stopServer, type RunningServer } from '../support/server';
import { eventually } from '../../test-support/eventually';

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** An HTTP receiver on 127.0.0.1 that keeps every request and answers 200. */
class Receiver {
  readonly received: Received[] = [];
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers: Record<string, string> = {};
      for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type']) {
        headers[name] = String(request.headers[name] ?? '');
      }
      this.received.push({ headers, body: Buffer.concat(chunks).toString() });
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('received');
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The message with that webhook-id, once it came (the dispatcher sends within a second or so). */
  async message(id: string, withinMs = 20_000): Promise<Received> {
    const found = () => this.received.find((request) => request.headers['webhook-id'] === id);
    await eventually(() => found() !== undefined, { withinMs, saying: () => `the receiver got no message ${id}` });
    return found()!;
  }
}

/** Throws unless one of the message's signatures is `secret`'s; answers its body. */
const verify = (message: Received, secret: string) =>
  new Webhook(secret).verify(message.body, message.headers) as { type: string; data: Record<string, unknown> };

let server: RunningServer;
const receiver = new Receiver();
let receiverUrl: string;

beforeAll(async () => {
  [server, receiverUrl] = await Promise.all([startServer({ VERITAS_WEBHOOKS_ALLOW_LOCAL: '1' }), receiver.start()]);
}, 90_000);
afterAll(async () => {
  await receiver.stop();
  if (server) await stopServer(server);
});

const tab = freshPagePerTest({ baseURL: () => server.url });
let page: Page;
beforeEach(() => {
  page = tab.page();
});

/** Clicks the row's Send test event and answers the message id its toast names. */
async function sendTestEvent(url: string): Promise<string> {
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: url, exact: true }) });
  await row.getByRole('button', { name: `Send test event to ${url}` }).click();
  const toast = page.getByText(`Test event queued for ${url}: message `);
  await toast.waitFor();
  const [, messageId] = /: message (msg_test_\S+)\.$/.exec((await toast.textContent())!) ?? [];
  expect(messageId).toBeDefined();
  // Gone before the next one, so each toast read is its own.
  await toast.waitFor({ state: 'detached', timeout: 15_000 });
  return messageId!;
}

test('admin: an endpoint added on the page receives the signed test event, before and after a rotation', async () => {
  await signIn(page, DEMO.admin);
  await page.goto('/Integrations');
  const section = page.getByRole('region', { name: 'Webhook endpoints' });
  await section.getByRole('table', { name: 'Webhook endpoints' }).waitFor();

  // Added: the secret shows once.
  const form = section.getByRole('form', { name: 'Add a webhook endpoint' });
  await form.getByLabel('URL').fill(receiverUrl);
  await form.getByLabel('Description').fill('e2e receiver');
  await form.getByRole('checkbox', { name: /Case opened/ }).check();
  await form.getByRole('button', { name: 'Add endpoint' }).click();
  const shown = section.getByRole('region', { name: `Secret of the endpoint ${receiverUrl}` });
  await shown.getByText('Copy this secret now: it is shown once.').waitFor();
  const secret = await shown.getByRole('textbox').inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await shown.getByRole('button', { name: 'Done' }).click();
  await shown.waitFor({ state: 'detached' });
  expect(await page.getByText(secret).count()).toBe(0);

  const row = section.getByRole('row').filter({ has: page.getByRole('rowheader', { name: receiverUrl, exact: true }) });
  await row.getByText('Case opened').waitFor();
  await row.getByText('Enabled', { exact: true }).waitFor();

  // The test event: signed with the secret shown.
  const firstId = await sendTestEvent(receiverUrl);
  const first = await receiver.message(firstId);
  expect(first.headers['content-type']).toMatch(/^application\/json/);
  const body = verify(first, secret);
  expect(body.type).toBe('webhook.test');
  expect(() => verify(first, `whsec_${Buffer.alloc(32, 7).toString('base64')}`)).toThrow();

  // The delivery log: the test event succeeded, with the receiver's 200.
  await row.getByRole('button', { name: `Delivery log of ${receiverUrl}` }).click();
  const log = section.getByRole('region', { name: `Delivery log of ${receiverUrl}` });
  const delivery = log.getByRole('row').filter({ has: page.getByRole('rowheader', { name: firstId, exact: true }) });
  await delivery.waitFor();
  // Read again every few seconds while its attempt is due: no reload needed.
  await delivery.getByText('Succeeded', { exact: true }).waitFor({ timeout: 20_000 });
  await delivery.getByText(/^200 · \d+ ms/).waitFor();
  await delivery.getByText('Test event', { exact: true }).waitFor();
  await delivery.getByRole('button', { name: `Attempts (1) of ${firstId}` }).click();
  const attempts = log.getByRole('table', { name: `Attempts of ${firstId}` });
  await attempts.getByRole('cell', { name: '200', exact: true }).waitFor();
  await attempts.getByText('received').waitFor();

  // Rotated (confirmed): a new secret once, and the old one signs too for a while.
  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: `Rotate secret of ${receiverUrl}` }).click();
  const rotated = section.getByRole('region', { name: `Secret of the endpoint ${receiverUrl}` });
  await rotated.getByText(/^The old secret signs too until /).waitFor();
  const newSecret = await rotated.getByRole('textbox').inputValue();
  expect(newSecret).toMatch(/^whsec_/);
  expect(newSecret).not.toBe(secret);
  await rotated.getByRole('button', { name: 'Done' }).click();

  const secondId = await sendTestEvent(receiverUrl);
  expect(secondId).not.toBe(firstId);
  const second = await receiver.message(secondId);
  expect(second.headers['webhook-signature']!.split(' ')).toHaveLength(2);
  expect(verify(second, newSecret).type).toBe('webhook.test');
  expect(verify(second, secret).type).toBe('webhook.test');
});
