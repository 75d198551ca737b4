// The webhook dispatcher of one instance (docs/webhooks.md#dispatcher), a job of the server's
// (jobs.ts): it fans the new events out (outbox.ts), claims the due deliveries and sends them, up
// to IN_FLIGHT at once, each on its own (one slow endpoint holds up no other), and records the
// outcomes in batches (deliveries.ts): one transaction for the attempts that ended meanwhile, not
// one per attempt. Woken by the event hub as events commit, and every POLL_MS for the retries that
// fall due and in case a wake was lost. Every instance of a fleet runs one: the outbox's claims keep
// them from sending one attempt twice.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/schema';
import type { EventHub } from '../events/hub';
import type { BackgroundJob } from '../jobs';
import { recordAttempts, type AttemptMade, type RetryPolicy } from './deliveries';
import { claimDue, fanOut, fanOutWhileFull } from './outbox';
import { sendAttempt, type SendPolicy } from './send';

const POLL_MS = 1000;
/**
 * A wake waits this long for the events and attempt ends that follow it, so a busy instance fans
 * out, claims and records in one transaction each per round, not per event.
 */
const GATHER_MS = 25;
/** An attempt without an answer within this is a failure (docs/webhooks.md#delivery). */
export const WEBHOOK_TIMEOUT_MS = 15_000;
/** Attempts under way at once on an instance. */
const IN_FLIGHT = 32;
/** A claim lasts the attempt's timeout and this margin: an instance that dies mid-attempt leaves it due then. */
const CLAIM_MARGIN_MS = 5000;

export type DispatchPolicy = SendPolicy & RetryPolicy;

export class WebhookDispatcher implements BackgroundJob {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private gathering: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private closed = false;
  /** Attempts under way, and those ended but not yet recorded. */
  private readonly sending = new Set<Promise<void>>();
  private ended: AttemptMade[] = [];

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
    clearTimeout(this.gathering);
    this.unsubscribe?.();
    await this.running;
    // The attempts under way are recorded (only an instance that dies leaves its claims to run out).
    await Promise.allSettled([...this.sending]);
    await this.record();
  }

  /** Records, fans out and sends what is due (shortly, or once more after the round under way). */
  wake(): void {
    if (this.closed || this.gathering) return;
    this.gathering = setTimeout(() => {
      this.gathering = undefined;
      this.round();
    }, GATHER_MS);
  }

  private round(): void {
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
      await this.record();
      await fanOutWhileFull(
        () => fanOut(this.db),
        () => this.closed,
      );
      await this.claim();
    } while (this.again && !this.closed);
  }

  /** Claims as many due deliveries as there is room for, and starts sending each. */
  private async claim(): Promise<void> {
    const room = IN_FLIGHT - this.sending.size;
    if (room <= 0) return;
    const now = Date.now();
    const claimed = await claimDue(this.db, now, now + this.policy.timeoutMs + CLAIM_MARGIN_MS, room);
    for (const delivery of claimed) {
      const at = Date.now();
      const sent: Promise<void> = sendAttempt(
        delivery.url,
        { id: delivery.messageId, body: delivery.body },
        delivery.secrets,
        this.policy,
      ).then((attempt) => {
        this.sending.delete(sent);
        this.ended.push({ delivery, attempt, at });
        // Its outcome is recorded, and another claimed in its room, in the next round.
        this.wake();
      });
      this.sending.add(sent);
    }
  }

  /**
   * Records the outcomes of the attempts that ended since the last round, in one transaction (one
   * per attempt, under the simulator, cost a transaction per message).
   */
  private async record(): Promise<void> {
    const batch = this.ended;
    this.ended = [];
    await recordAttempts(this.db, batch, this.policy);
  }
}
