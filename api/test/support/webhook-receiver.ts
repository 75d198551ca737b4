// A real webhook receiver for the tests (docs/webhooks.md): an HTTP server on 127.0.0.1 that keeps
// every request it gets, answers as the test says (a status, a Retry-After, or holding the request
// unanswered), and checks signatures with the `standardwebhooks` package, the specification's own.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { eventually } from '../../../test-support/eventually';

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  type: string;
  data: Record<string, unknown>;
  /** Requests with this webhook-id under way when this one came (a second attempt sent at once). */
  concurrent: number;
}

export type Answer = { status: number; retryAfter?: string } | 'hold';

export class WebhookReceiver {
  readonly received: Received[] = [];
  /** How the next request is answered; default 200. */
  answer: (request: Received) => Answer = () => ({ status: 200 });
  private readonly inFlight = new Map<string, number>();
  private readonly held: http.ServerResponse[] = [];
  private server: http.Server | undefined;
  url = '';

  async start(port = 0): Promise<string> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        const id = String(request.headers['webhook-id']);
        const parsed = JSON.parse(body) as { type: string; data: Record<string, unknown> };
        const received: Received = {
          id,
          timestamp: String(request.headers['webhook-timestamp']),
          signature: String(request.headers['webhook-signature']),
          body,
          type: parsed.type,
          data: parsed.data,
          concurrent: this.inFlight.get(id) ?? 0,
        };
        this.inFlight.set(id, received.concurrent + 1);
        response.on('close', () => this.inFlight.set(id, (this.inFlight.get(id) ?? 1) - 1));
        this.received.push(received);
        const answer = this.answer(received);
        if (answer === 'hold') {
          this.held.push(response);
          return;
        }
        response.writeHead(answer.status, answer.retryAfter ? { 'retry-after': answer.retryAfter } : {});
        response.end(`answered ${answer.status}`);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    const address = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${address.port}/hooks`;
    return this.url;
  }

  /** Stops listening (a receiver that is down); requests held are dropped. */
  async stop(): Promise<void> {
    for (const response of this.held.splice(0)) response.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Checks a message's signature with `secret`: throws unless one of its signatures is the secret's. */
  static verify(message: Received, secret: string): unknown {
    return new Webhook(secret).verify(message.body, {
      'webhook-id': message.id,
      'webhook-timestamp': message.timestamp,
      'webhook-signature': message.signature,
    });
  }

  async waitFor(predicate: (received: Received[]) => boolean, withinMs = 20_000): Promise<void> {
    await eventually(() => predicate(this.received), { withinMs });
  }

  ofType(type: string): Received[] {
    return this.received.filter((message) => message.type === type);
  }
}
