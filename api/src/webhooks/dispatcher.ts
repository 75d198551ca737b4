// The webhook dispatcher of one instance (docs/webhooks.md#dispatcher), a job of the server's
// (jobs.ts): in one transaction per round, it records the outcomes of the attempts that ended
// meanwhile (deliveries.ts), fans the new events out and claims the deliveries made (outbox.ts),
// and claims other due ones when some may be; then it sends them, up to IN_FLIGHT at once, each on
// its own (one slow endpoint holds up no other). Woken by the event hub as events commit, and
// every POLL_MS for the retries that fall due and in case a wake was lost. Every instance of a
// fleet runs one: the outbox's claims keep them from sending one attempt twice.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/schema';
import type { EventHub } from '../events/hub';
import type { BackgroundJob } from '../jobs';
import { recordAttempts, type AttemptMade, type RetryPolicy } from './deliveries';
import { claimRound, fanOutWhileFull, type ClaimedDelivery } from './outbox';
import { sendAttempt, type SendPolicy } from './send';

const POLL_MS = 1000;
/**
 * A wake waits this long for the events and attempt ends that follow it, so a busy instance records,
 * fans out and claims in one transaction per round, not per event.
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
  /**
   * Deliveries other than the fan-out's new ones may be due (retries, redeliveries, what a fan-out
   * left due): the next round claims them first. A round that knows none are due makes no claiming
   * statement of its own; under load most rounds only fan out, claiming what they make.
   */
  private othersMayBeDue = true;

  constructor(
    private readonly db: Db,
    private readonly policy: DispatchPolicy,
    private readonly log: FastifyBaseLogger,
    private readonly hub: EventHub | null,
  ) {}

  start(): void {
    // Each tick claims the retries fallen due since, and anything a lost wake left.
    this.timer = setInterval(() => this.wake(), POLL_MS).unref();
    this.unsubscribe = this.hub?.subscribe(() => this.soon());
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
    const made = this.ended;
    if (made.length > 0) await this.db.transaction((trx) => recordAttempts(trx, this.db, made, this.policy));
  }

  /**
   * Deliveries may be due besides those the fan-out makes (the second's tick; an admin's
   * redelivery, replay or test event): claims them shortly.
   */
  wake(): void {
    this.othersMayBeDue = true;
    this.soon();
  }

  /** Records, fans out and sends what is due, shortly (or once more after the round under way). */
  private soon(): void {
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
      await fanOutWhileFull(
        () => this.roundPage(),
        () => this.closed,
      );
    } while (this.again && !this.closed);
  }

  /**
   * A round's work in one transaction: the outcomes of the attempts that ended since the last one
   * recorded; when some may be due, the due deliveries claimed (retries, redeliveries, those a
   * fan-out left due); a page of events fanned out with its new deliveries claimed in the room left.
   * Then each claimed delivery is sent. Answers how many events the page read.
   */
  private async roundPage(): Promise<number> {
    const made = this.ended;
    this.ended = [];
    const claimOthers = this.othersMayBeDue;
    this.othersMayBeDue = false;
    const now = Date.now();
    const lease = { until: now + this.policy.timeoutMs + CLAIM_MARGIN_MS, limit: IN_FLIGHT - this.sending.size };
    try {
      const { others, page } = await this.db.transaction(async (trx) => {
        await recordAttempts(trx, this.db, made, this.policy);
        return claimRound(trx, this.db, now, lease, claimOthers);
      });
      // Others may still be due while a claim fills the room it had, or none could be made.
      if (page.leftDue || (claimOthers && others.length === lease.limit)) this.othersMayBeDue = true;
      for (const delivery of [...others, ...page.claimed]) this.send(delivery, lease.until);
      return page.events;
    } catch (error) {
      this.othersMayBeDue ||= claimOthers;
      // The outcomes wait for the next round while their claims hold, by the margin at least: then
      // no other instance can have claimed their deliveries, and none is sent again for a lost outcome.
      const stillClaimed = made.filter((m) => m.claimedUntil - CLAIM_MARGIN_MS > Date.now());
      this.ended = [...stillClaimed, ...this.ended];
      throw error;
    }
  }

  /** Sends one claimed delivery; its outcome is recorded, and another claimed in its room, in the next round. */
  private send(delivery: ClaimedDelivery, claimedUntil: number): void {
    const at = Date.now();
    const sent: Promise<void> = sendAttempt(
      delivery.url,
      { id: delivery.messageId, body: delivery.body },
      delivery.secrets,
      this.policy,
    ).then((attempt) => {
      this.sending.delete(sent);
      this.ended.push({ delivery, attempt, at, claimedUntil });
      this.soon();
    });
    this.sending.add(sent);
  }
}
