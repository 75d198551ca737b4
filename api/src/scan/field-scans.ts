// The field scans: this gathers the facts of a scan from the database, judges them with the
// rules (rules.ts) and records what field staff did. The app's routes, the demo data and the
// simulator all go through here; `at` lets the demo data work on a simulated clock. It speaks the
// domain: a scan it will not take is a ScanRefusal with its code, which scan/answers.ts answers.
// Every change to a record goes through changeRecord (src/writes/record-changes.ts), which keeps
// its derived columns and the summaries in step, in the change's transaction. A scan with an error
// result E003–E010 opens a case in its transaction (src/cases/opening.ts), refused scans (E003,
// E008) included: their transaction commits the case and nothing else.
import {
  brandKey,
  deviceError,
  type DeviceScan,
  type HardwareScan,
  type ScanAnswer,
  type VerifyAnswer,
} from '@veritas/shared/domain';
import type { Kysely } from 'kysely';
import { openCaseIdOfRecord } from '../cases/repository';
import { lockingRows } from '../db/engines';
import type { Database, Db } from '../db/schema';
import type { SessionUser } from '../auth/sessions';
import { changeRecord, RECORD_COLUMNS, recordRowOf } from '../writes/record-changes';
import {
  auditCaseOpened,
  openCaseOfRefusal,
  opensCase,
  writeCaseOfScan,
  writeStepOnCase,
  type FlaggingScan,
} from '../cases/opening';
import { checkScan, expectedOf, type CheckOutcome, type CheckResult, type ExpectedItem, type ScanFacts } from './rules';

/**
 * Who scans: the part of a signed-in user the rules look at, and the client address the audit
 * entry of a case the scan opens names (absent for the simulator's calls in the server's process).
 */
export type FieldUser = Pick<SessionUser, 'id' | 'username' | 'role' | 'groupCode' | 'organization'> & {
  address?: string | null;
};

export type { DeviceScan, HardwareScan };

/** Device errors a scan is refused with (docs/field-scans.md#device-error-codes), shown with the catalogue's texts. */
export type RefusedDevice = 'E001' | 'E002' | 'E003' | 'E008';

/** Why a scan is refused: a device error, or a reason of the engine's own. */
export type RefusalCode =
  | RefusedDevice
  | 'invalid-mac'
  | 'not-operator'
  | 'not-hub-staff'
  | 'other-hub'
  | 'not-rc-staff'
  | 'unknown-tracking-id'
  | 'not-submitted'
  | 'capture-locked'
  | 'already-verified-at-hub'
  | 'not-verified-at-hub'
  | 'already-detached';

/** A scan the engine will not take, with its code and the facts its message names. */
export class ScanRefusal extends Error {
  constructor(
    readonly code: RefusalCode,
    readonly facts: { trackingId?: string } = {},
  ) {
    super(`Scan refused: ${code}`);
  }
}

const PASSED = { title: 'Passed', description: 'The device matches the order.' };

function texts(result: CheckResult): { title: string; description: string } {
  const entry = deviceError(result);
  return entry ? { title: entry.title, description: entry.description } : PASSED;
}

/** 'aa:bb:cc:dd:ee:ff', 'AA-BB-CC-DD-EE-FF', 'aabb.ccdd.eeff' or 12 hex digits → 'AABBCCDDEEFF'; else null. */
export function normalizeMac(text: string): string | null {
  const trimmed = text.trim();
  const hex = /^[0-9a-f]{2}([:-])[0-9a-f]{2}(\1[0-9a-f]{2}){4}$/i.test(trimmed)
    ? trimmed.replace(/[:-]/g, '')
    : /^[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}$/i.test(trimmed)
      ? trimmed.replace(/\./g, '')
      : trimmed;
  return /^[0-9a-f]{12}$/i.test(hex) ? hex.toUpperCase() : null;
}

/** Hardware IDs compare trimmed and case-insensitively (scanners differ in case). */
const sameHardware = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export async function fieldUserOf(db: Db, userId: number): Promise<FieldUser | null> {
  const row = await db.kysely
    .selectFrom('users as u')
    .leftJoin('groups as g', 'g.id', 'u.group_id')
    .select(['u.id', 'u.username', 'u.role', 'g.code', 'g.organization'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        username: row.username,
        role: row.role,
        groupCode: row.code ?? null,
        organization: row.organization ?? null,
      }
    : null;
}

type Executor = Kysely<Database>;

/**
 * The record of a tracking ID, with what a change of it reads (RECORD_COLUMNS). Given `lockIn` (in
 * a transaction), others cannot change it until the transaction ends, and it comes with its open
 * case's id (a scan of an item without one then costs no lookup of it).
 */
async function itemOf(kysely: Executor, trackingId: string, lockIn?: Db) {
  const query = kysely
    .selectFrom('device_records')
    .select([
      ...RECORD_COLUMNS,
      'is_blindpick',
      'device_brand',
      'device_model_name',
      'blind_brand',
      'blind_model',
      'hardware_id',
      'is_verified_rc',
    ])
    // The open case's id: read with the record in a scan's transaction, unless case opening is off
    // (the benchmarks of its cost measure this read too).
    .$if(lockIn !== undefined && lockIn.caseOpening !== false, (qb) => qb.select(openCaseIdOfRecord.as('open_case_id')))
    .where('tracking_id', '=', trackingId);
  const row = await (lockIn ? lockingRows(lockIn, query) : query).executeTakeFirst();
  return row && { ...recordRowOf(row), open_case_id: row.open_case_id == null ? null : Number(row.open_case_id) };
}
type Item = NonNullable<Awaited<ReturnType<typeof itemOf>>>;

const expectedItem = (item: Item): ExpectedItem => ({
  hubCode: item.hub_code,
  isBlindpick: item.is_blindpick === 1,
  deviceBrand: item.device_brand,
  deviceModel: item.device_model_name,
  blindBrand: item.blind_brand,
  blindModel: item.blind_model,
  isSubmitted: item.is_submit === 1,
  submittedById: item.submitted_by_id,
});

/** The registry organization of the MAC's OUI: the longest assigned prefix (MA-S 9, MA-M 7, MA-L 6 digits). */
async function manufacturerOf(kysely: Executor, mac: string): Promise<string | null> {
  const rows = await kysely
    .selectFrom('oui_prefixes as p')
    .innerJoin('manufacturers as m', 'm.id', 'p.manufacturer_id')
    .select(['p.prefix', 'm.manufacturer'])
    .where('p.prefix', 'in', [mac.slice(0, 9), mac.slice(0, 7), mac.slice(0, 6)])
    .execute();
  // The longest of at most three, chosen here: an ORDER BY … LIMIT 1 made SQLite sort them in a
  // temporary B-tree, 40 of the lookup's 53 µs.
  let longest: (typeof rows)[number] | undefined;
  for (const row of rows) if (!longest || row.prefix.length > longest.prefix.length) longest = row;
  return longest?.manufacturer ?? null;
}

/** Another tracking ID that captured this MAC, if any. */
async function macOwner(kysely: Executor, mac: string, trackingId: string): Promise<string | null> {
  const row = await kysely
    .selectFrom('mac_captures')
    .select('tracking_id')
    .where('mac_address', '=', mac)
    .where('tracking_id', '<>', trackingId)
    .executeTakeFirst();
  return row?.tracking_id ?? null;
}

/** Everything the rules need about a scan, but who else captured the MAC. */
async function factsOf(
  kysely: Executor,
  user: FieldUser,
  scan: DeviceScan,
  mac: string,
  item: Item | undefined,
): Promise<ScanFacts> {
  const brand = item ? expectedOf(expectedItem(item)).brand : null;
  const key = brand === null ? '' : brandKey(brand);
  const [manufacturer, excluded, whiteLabels] = await Promise.all([
    manufacturerOf(kysely, mac),
    key
      ? kysely.selectFrom('brand_exclusions').select('brand').where('brand_key', '=', key).executeTakeFirst()
      : undefined,
    key
      ? kysely
          .selectFrom('brands as b')
          .innerJoin('brand_manufacturers as bm', 'bm.brand_id', 'b.id')
          .select('bm.manufacturer')
          .where('b.brand_key', '=', key)
          .execute()
      : [],
  ]);
  return {
    item: item ? expectedItem(item) : null,
    operator: { id: user.id, hubCode: user.organization === 'hub' ? user.groupCode : null },
    macCapturedBy: null,
    manufacturer,
    brandExcluded: excluded !== undefined,
    whiteLabels: whiteLabels.map((row) => row.manufacturer),
    scannedModel: scan.model,
  };
}

const answer = (outcome: CheckOutcome): ScanAnswer => ({ ...outcome, ...texts(outcome.result) });

function requireOperator(user: FieldUser): void {
  if (user.role !== 'operators') throw new ScanRefusal('not-operator');
}

function macOf(scan: DeviceScan): string {
  const mac = normalizeMac(scan.mac_address);
  if (!mac) throw new ScanRefusal('invalid-mac');
  return mac;
}

/** The check of a doorstep scan; stores nothing. */
export async function checkDevice(db: Db, user: FieldUser, scan: DeviceScan): Promise<ScanAnswer> {
  requireOperator(user);
  const mac = macOf(scan);
  const item = await itemOf(db.kysely, scan.tracking_id);
  const facts = await factsOf(db.kysely, user, scan, mac, item);
  return answer(checkScan({ ...facts, macCapturedBy: item ? await macOwner(db.kysely, mac, scan.tracking_id) : null }));
}

/**
 * The doorstep submission. E001–E003 are refused; E004–E007 are stored with their result (the
 * detach process starts from them). One transaction: of two operators submitting one tracking ID
 * at once exactly one claims it, and of two tracking IDs captured with one MAC the later is E004.
 */
export async function submitDevice(db: Db, user: FieldUser, scan: DeviceScan, at = new Date()): Promise<ScanAnswer> {
  requireOperator(user);
  const mac = macOf(scan);
  const flagged = (item: Item, reason: FlaggingScan['reason'], manufacturer: string | null): FlaggingScan => ({
    trackingId: scan.tracking_id,
    reason,
    queue: item.hub_code ?? user.groupCode ?? '',
    by: user,
    at,
    model: scan.model,
    manufacturer,
    mac,
    hardwareId: scan.hardware_id.trim(),
  });
  const done = await db.transaction(async (trx) => {
    // Locked: of two operators submitting one tracking ID at once, the second reads the first's claim (E003).
    const item = await itemOf(trx, scan.tracking_id, db);
    const facts = await factsOf(trx, user, scan, mac, item);
    const before = checkScan(facts);
    if (before.result === 'E001' || before.result === 'E002') throw new ScanRefusal(before.result);
    // Another operator's claim is refused, and opens (or adds to) the item's case.
    if (before.result === 'E003') {
      await openCaseOfRefusal(trx, db, flagged(item!, 'E003', facts.manufacturer), item!.open_case_id);
      return new ScanRefusal('E003');
    }
    if (item!.is_verified === 1) throw new ScanRefusal('capture-locked');

    // A resubmission replaces this tracking ID's earlier capture.
    await trx
      .deleteFrom('mac_captures')
      .where('tracking_id', '=', scan.tracking_id)
      .where('mac_address', '<>', mac)
      .execute();
    await trx
      .insertInto('mac_captures')
      .values({ mac_address: mac, tracking_id: scan.tracking_id, captured_at: at.toISOString() })
      .onConflict((oc) => oc.column('mac_address').doNothing())
      .execute();
    const outcome = checkScan({ ...facts, macCapturedBy: await macOwner(trx, mac, scan.tracking_id) });
    const flaggedCase = opensCase(outcome.result)
      ? await writeCaseOfScan(trx, db, flagged(item!, outcome.result, outcome.found.manufacturer), item!.open_case_id)
      : null;

    await changeRecord(
      trx,
      db,
      item!,
      {
        is_submit: 1,
        submitted_by_id: user.id,
        submit_time: at.toISOString(),
        submitted_device_name: scan.model,
        submitted_manufacturer: outcome.found.manufacturer,
        device_result: outcome.result,
        mac_address: mac,
        hardware_id: scan.hardware_id.trim(),
      },
      flaggedCase?.events,
    );
    if (flaggedCase) await auditCaseOpened(trx, db, flaggedCase);
    return answer(outcome);
  });
  if (done instanceof ScanRefusal) throw done;
  return done;
}

/**
 * The record a hardware scan verifies, read locked in the verification's transaction; `refuse`
 * checks the step's own rules first. A device that is not the one captured at the doorstep (E008)
 * opens a case in `queue` and is refused once that commits.
 */
async function verifiableItem(
  { trx, db, user, scan, at }: { trx: Executor; db: Db; user: FieldUser; scan: HardwareScan; at: Date },
  refuse: (item: Item) => void,
  queueOf: (item: Item) => string,
): Promise<Item | ScanRefusal> {
  const item = await itemOf(trx, scan.tracking_id, db);
  if (!item) throw new ScanRefusal('unknown-tracking-id', { trackingId: scan.tracking_id });
  refuse(item);
  if (item.hardware_id !== null && !sameHardware(item.hardware_id, scan.hardware_id)) {
    const scanned = {
      trackingId: scan.tracking_id,
      reason: 'E008' as const,
      queue: queueOf(item),
      by: user,
      at,
      model: null,
      manufacturer: null,
      mac: null,
      hardwareId: scan.hardware_id.trim(),
    };
    await openCaseOfRefusal(trx, db, scanned, item.open_case_id);
    return new ScanRefusal('E008');
  }
  return item;
}

const verified = (trackingId: string): VerifyAnswer => ({ result: 'passed', ...PASSED, tracking_id: trackingId });

/** The verification's answer once its transaction committed: passed, or the refusal it committed a case for. */
function verifiedOrRefused(outcome: ScanRefusal | void, trackingId: string): VerifyAnswer {
  if (outcome instanceof ScanRefusal) throw outcome;
  return verified(trackingId);
}

/** Verification at the hub, by an executive or incharge of the record's hub. */
export async function verifyAtHub(db: Db, user: FieldUser, scan: HardwareScan, at = new Date()): Promise<VerifyAnswer> {
  if ((user.role !== 'executive' && user.role !== 'incharge') || user.organization !== 'hub')
    throw new ScanRefusal('not-hub-staff');
  const outcome = await db.transaction(async (trx) => {
    const item = await verifiableItem(
      { trx, db, user, scan, at },
      (found) => {
        if (found.hub_code?.toLowerCase() !== user.groupCode?.toLowerCase()) throw new ScanRefusal('other-hub');
        if (found.is_submit !== 1) throw new ScanRefusal('not-submitted');
      },
      (found) => found.hub_code ?? user.groupCode ?? '',
    );
    if (item instanceof ScanRefusal) return item;
    if (item.is_verified === 1) throw new ScanRefusal('already-verified-at-hub');
    const caseEvents = await writeStepOnCase(
      trx,
      db,
      { trackingId: scan.tracking_id, kind: 'verified-at-hub', by: user, at, queue: null },
      item.open_case_id,
    );
    await changeRecord(
      trx,
      db,
      item,
      { is_verified: 1, verified_by_id: user.id, verify_time: at.toISOString() },
      caseEvents,
    );
  });
  return verifiedOrRefused(outcome, scan.tracking_id);
}

/** Verification at a return centre, after the hub's: the device is detached. No dashboard figure reads it. */
export async function verifyAtRc(db: Db, user: FieldUser, scan: HardwareScan, at = new Date()): Promise<VerifyAnswer> {
  if (user.organization !== 'RC') throw new ScanRefusal('not-rc-staff');
  const outcome = await db.transaction(async (trx) => {
    const item = await verifiableItem(
      { trx, db, user, scan, at },
      (found) => {
        if (found.is_verified !== 1) throw new ScanRefusal('not-verified-at-hub');
      },
      () => user.groupCode ?? '',
    );
    if (item instanceof ScanRefusal) return item;
    if (item.is_verified_rc === 1) throw new ScanRefusal('already-detached');
    const caseEvents = await writeStepOnCase(
      trx,
      db,
      { trackingId: scan.tracking_id, kind: 'detached', by: user, at, queue: user.groupCode },
      item.open_case_id,
    );
    await changeRecord(
      trx,
      db,
      item,
      { is_verified_rc: 1, verified_by_rc_id: user.id, verify_time_rc: at.toISOString(), is_verified_rc_by: 1 },
      caseEvents,
    );
  });
  return verifiedOrRefused(outcome, scan.tracking_id);
}
