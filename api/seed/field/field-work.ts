// The field staff's work on each item of a shipment, from the doorstep to the return centre: an
// operator checks and submits the device (sometimes after a wrong TID, a faulty scan or a retry),
// the hub verifies it, a return centre detaches it. The demo data runs it in-process on a
// simulated clock, the simulator over HTTP in real time: the same steps through the same rules.
import type { CatalogueDevice } from './catalogue';
import type { DeviceMaker, ScanIntent, ScannedDevice } from './devices';
import type { RandomSource } from '@veritas/shared/testing/records';

export interface ShipmentItem {
  tracking_id: string;
  hub_code: string;
  created: Date;
  device: CatalogueDevice;
  blindPick: boolean;
}

export interface DeviceScan extends ScannedDevice {
  tracking_id: string;
}

export interface HardwareScan {
  tracking_id: string;
  hardware_id: string;
}

/** 'passed' or an error code (also of a refusal), or 'HTTP <status>' for any other failure. */
export type CallResult = string;

export type Step = 'submit' | 'verify_hub' | 'verify_rc';

/** How the calls reach the engine: in-process (demo data) or over HTTP (simulator). */
export interface FieldCalls<User> {
  check(user: User, scan: DeviceScan): Promise<CallResult>;
  submit(user: User, scan: DeviceScan, at: Date): Promise<CallResult>;
  verifyHub(user: User, scan: HardwareScan, at: Date): Promise<CallResult>;
  verifyRc(user: User, scan: HardwareScan, at: Date): Promise<CallResult>;
}

export interface FieldStaff<User> {
  /** Operators by hub code. */
  operators: ReadonlyMap<string, readonly User[]>;
  /** Executives and incharges by hub code. */
  hubVerifiers: ReadonlyMap<string, readonly User[]>;
  /** The return centre user who detaches a hub's devices. */
  rcVerifiers: ReadonlyMap<string, User>;
}

/**
 * When a step of an item happens, given when the previous one did; null: not yet (the item stops
 * there). The simulator answers "now"; the demo spreads steps over hours and days.
 */
export type Clock = (item: ShipmentItem, step: Step, previous: Date) => Date | null;

/** How often things happen (probabilities per item). */
export const FIELD_RATES = {
  /** The operator first types a tracking ID that does not exist (E001). */
  wrongTid: 0.04,
  /** …or scans another hub's item (E002). */
  otherHubTid: 0.03,
  /** The device scanned at the doorstep. */
  intents: [
    ['genuine', 0.7],
    ['duplicate-mac', 0.05],
    ['unknown-manufacturer', 0.06],
    ['foreign-manufacturer', 0.09],
    ['other-model', 0.1],
  ] as [ScanIntent, number][],
  /** A failed check was a scanning mistake: the operator rescans the right device. */
  retryAfterFailure: 0.4,
  /** The operator never gets to the item. */
  notVisited: 0.12,
  /** A colleague at the same hub later tries to submit it too (E003). */
  colleagueResubmits: 0.03,
  hubVerified: 0.85,
  rcVerified: 0.8,
  /** A verifier first scans another unit (E008), then the right one. */
  wrongUnitAtVerify: 0.05,
};

/** Counts of results per call: tally.get('submit')?.get('E006'). */
export type Tally = Map<string, Map<CallResult, number>>;

export function countResult(tally: Tally, call: string, result: CallResult): void {
  const results = tally.get(call) ?? new Map<CallResult, number>();
  results.set(result, (results.get(result) ?? 0) + 1);
  tally.set(call, results);
}

export class FieldWork<User> {
  readonly tally: Tally = new Map();

  constructor(
    private readonly calls: FieldCalls<User>,
    private readonly staff: FieldStaff<User>,
    private readonly devices: DeviceMaker,
    private readonly rand: RandomSource,
    private readonly clock: Clock,
    /** Items of every hub, for the scans of another hub's item. */
    private readonly shipment: readonly ShipmentItem[],
  ) {}

  /** The whole journey of one item, done by `operator` (one of its hub's operators). */
  async work(item: ShipmentItem, operator: User): Promise<void> {
    const submitted = await this.doorstep(item, operator);
    if (!submitted) return;
    const { at, hardwareId } = submitted;
    if (!this.rand.chance(FIELD_RATES.hubVerified)) return;
    const verifier = this.staff.hubVerifiers.get(item.hub_code);
    const hubAt = verifier?.length ? this.clock(item, 'verify_hub', at) : null;
    if (!verifier?.length || !hubAt) return;
    const atHub = await this.verify(
      'verify_hub',
      (scan) => this.calls.verifyHub(this.rand.pick(verifier), scan, hubAt),
      item,
      hardwareId,
    );
    if (!atHub || !this.rand.chance(FIELD_RATES.rcVerified)) return;
    const rc = this.staff.rcVerifiers.get(item.hub_code);
    const rcAt = rc === undefined ? null : this.clock(item, 'verify_rc', hubAt);
    if (rc === undefined || !rcAt) return;
    await this.verify('verify_rc', (scan) => this.calls.verifyRc(rc, scan, rcAt), item, hardwareId);
  }

  private async call(name: string, result: Promise<CallResult>): Promise<CallResult> {
    const answer = await result;
    countResult(this.tally, name, answer);
    return answer;
  }

  /** Check(s) and submission; what was submitted, or null. */
  private async doorstep(item: ShipmentItem, operator: User): Promise<{ at: Date; hardwareId: string } | null> {
    if (this.rand.chance(FIELD_RATES.notVisited)) return null;
    const at = this.clock(item, 'submit', item.created);
    if (!at) return null;

    const scanned = (intent: ScanIntent, trackingId = item.tracking_id): DeviceScan => ({
      tracking_id: trackingId,
      ...this.devices.scan(item.device, intent),
    });
    if (this.rand.chance(FIELD_RATES.wrongTid))
      await this.call('check', this.calls.check(operator, scanned('genuine', `${item.tracking_id}X`)));
    if (this.rand.chance(FIELD_RATES.otherHubTid)) {
      const elsewhere = this.shipment.filter((other) => other.hub_code !== item.hub_code);
      if (elsewhere.length > 0)
        await this.call('check', this.calls.check(operator, scanned('genuine', this.rand.pick(elsewhere).tracking_id)));
    }

    let scan = scanned(this.pickIntent());
    const checked = await this.call('check', this.calls.check(operator, scan));
    if (checked !== 'passed' && this.rand.chance(FIELD_RATES.retryAfterFailure)) {
      scan = scanned('genuine');
      await this.call('check', this.calls.check(operator, scan));
    }
    const result = await this.call('submit', this.calls.submit(operator, scan, at));
    if (!/^(passed|E00[4-7])$/.test(result)) return null;

    const colleagues = (this.staff.operators.get(item.hub_code) ?? []).filter((other) => other !== operator);
    if (colleagues.length > 0 && this.rand.chance(FIELD_RATES.colleagueResubmits)) {
      await this.call('submit', this.calls.submit(this.rand.pick(colleagues), scanned('genuine'), at));
    }
    return { at, hardwareId: scan.hardware_id };
  }

  /** A verification, after a scan of the wrong unit now and then; whether it succeeded. */
  private async verify(
    name: Step,
    send: (scan: HardwareScan) => Promise<CallResult>,
    item: ShipmentItem,
    hardwareId: string,
  ) {
    if (this.rand.chance(FIELD_RATES.wrongUnitAtVerify)) {
      await this.call(name, send({ tracking_id: item.tracking_id, hardware_id: this.devices.hardwareId() }));
    }
    return (await this.call(name, send({ tracking_id: item.tracking_id, hardware_id: hardwareId }))) === 'passed';
  }

  private pickIntent(): ScanIntent {
    let roll = this.rand.next();
    for (const [intent, share] of FIELD_RATES.intents) {
      roll -= share;
      if (roll < 0) return intent;
    }
    return 'genuine';
  }
}
