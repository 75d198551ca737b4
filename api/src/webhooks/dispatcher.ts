// The webhook dispatcher of one instance (docs/webhooks.md#dispatcher), a job of the server's
// (jobs.ts): it fans the new events out (outbox.ts), then claims the due deliveries and sends them,
// several at once, recording each outcome (deliveries.ts). Woken by the event hub as events commit,
// and every POLL_MS for the retries that fall due and in case a wake was lost. Every instance of a
// fleet runs one: the outbox's claims keep them from sending one attempt twice.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/schema';
import type { EventHub } from '../events/hub';
import type { BackgroundJob } from '../jobs';
import { recordAttempt, type RetryPolicy } from './deliveries';
import { claimDue, fanOut } from './outbox';
import { sendAttempt, type SendPolicy } from './send';

const POLL_MS = 1000;
/** An attempt without an answer within this is a failure (docs/webhooks.md#delivery). */
export const WEBHOOK_TIMEOUT_MS = 15_000;
/** Deliveries claimed at once; also how many are sent at once. */
const CLAIM_LIMIT = 16;
/** A claim lasts the attempt's timeout and this margin: an instance that dies mid-attempt leaves it due then. */
const CLAIM_MARGIN_MS = 5000;

export type DispatchPolicy = SendPolicy & RetryPolicy;

export class WebhookDispatcher implements BackgroundJob {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly policy: DispatchPolicy,
    private readonly log: FastifyBaseLogger,
    private readonly hub: EventHub | null,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), POLL_MS).unref();
    this.unsubscribe = this.hub?.subscribe(() => this.wake());
    this.wake();
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.unsubscribe?.();
    await this.running;
  }

  /** Fans out and sends what is due (now, or once more after the round under way). */
  wake(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.rounds()
      .catch((error: unknown) => this.log.error({ err: error }, 'Delivering webhooks failed'))
      .finally(() => (this.running = undefined));
  }

  private async rounds(): Promise<void> {
    do {
      this.again = false;
      while (!this.closed && (await fanOut(this.db)) > 0);
      while (!this.closed && (await this.sendDue()) === CLAIM_LIMIT);
    } while (this.again && !this.closed);
  }

  /** Sends one batch of due deliveries; answers how many were claimed. */
  private async sendDue(): Promise<number> {
    const now = Date.now();
    const claimed = await claimDue(this.db, now, now + this.policy.timeoutMs + CLAIM_MARGIN_MS, CLAIM_LIMIT);
    await Promise.all(
      claimed.map(async (delivery) => {
        const at = Date.now();
        const attempt = await sendAttempt(
          delivery.url,
          { id: delivery.messageId, body: delivery.body },
          delivery.secrets,
          this.policy,
        );
        // Recorded even while stopping (stop waits for it): only an instance that dies leaves its claim to run out.
        await recordAttempt(this.db, delivery, attempt, at, this.policy);
      }),
    );
    return claimed.length;
  }
}
