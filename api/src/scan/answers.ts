// The mobile app's calls in the terms of the API: who may use the app, and the engine's refusals
// (ScanRefusal) as the app's error answers.
import { deviceError, type Credentials, type DeviceScan, type HardwareScan } from '@veritas/shared/domain';
import type { Static } from '@sinclair/typebox';
import type { Db } from '../db/schema';
import { startAppSession } from '../auth/sessions';
import { signInUser } from '../auth/sign-in';
import { BadRequest, Conflict, Forbidden, NotFound, type DomainError } from '../http-errors';
import {
  ScanRefusal,
  checkDevice,
  fieldUserOf,
  submitDevice,
  verifyAtHub,
  verifyAtRc,
  type FieldUser,
  type RefusalCode,
  type RefusedDevice,
} from './field-scans';

/** Field staff: operators at the doorstep, executives and incharges at hubs, anyone of a return centre. */
const canUseApp = (user: FieldUser) =>
  user.role === 'operators' || user.role === 'executive' || user.role === 'incharge' || user.organization === 'RC';

/** app/login/: the credentials' user, if field staff, with a new bearer token. */
export async function signInToApp(db: Db, credentials: Static<typeof Credentials>, clientAddress: string) {
  const account = await signInUser(db, credentials, clientAddress, 'app');
  const user = (await fieldUserOf(db, account.id))!;
  if (!canUseApp(user)) throw new Forbidden('This account cannot use the mobile app.');
  return { token: await startAppSession(db, account, clientAddress), role: account.role, hub_code: user.groupCode };
}

const REFUSALS: Record<Exclude<RefusalCode, RefusedDevice>, (facts: ScanRefusal['facts']) => DomainError> = {
  'invalid-mac': () => new BadRequest('mac_address', 'mac_address must be a MAC address (12 hex digits).'),
  'not-operator': () => new Forbidden('Only field operators scan devices at the doorstep.'),
  'not-hub-staff': () => new Forbidden('Only executives and incharges of a hub verify devices at the hub.'),
  'other-hub': () => new Forbidden('This tracking ID belongs to another hub.'),
  'not-rc-staff': () => new Forbidden('Only users of a return centre verify devices there.'),
  'unknown-tracking-id': ({ trackingId }) => new NotFound(`Tracking ID ${trackingId} is not in the system.`),
  'not-submitted': () => new Conflict('This device has not been submitted at the doorstep yet.'),
  'capture-locked': () =>
    new Conflict('This device is already verified at the hub: its doorstep capture can no longer change.'),
  'already-verified-at-hub': () => new Conflict('This device is already verified at the hub.'),
  'not-verified-at-hub': () => new Conflict('This device has not been verified at its hub yet.'),
  'already-detached': () => new Conflict('This device is already verified at a return centre.'),
};

/** A refused device answers 409 with its code and the catalogue's texts, as the app shows them. */
function answerOf(refusal: ScanRefusal): DomainError {
  const { code } = refusal;
  if (code === 'E001' || code === 'E002' || code === 'E003' || code === 'E008') {
    const { title, description } = deviceError(code)!;
    return new Conflict(title, { code, result: code, title, description });
  }
  return REFUSALS[code](refusal.facts);
}

/** The engine's answer, or its refusal as the app's error answer. */
async function scanned<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw error instanceof ScanRefusal ? answerOf(error) : error;
  }
}

/** The engine's entry points as the app's calls answer them. */
export const appScans = {
  check: (db: Db, user: FieldUser, scan: DeviceScan) => scanned(checkDevice(db, user, scan)),
  submit: (db: Db, user: FieldUser, scan: DeviceScan) => scanned(submitDevice(db, user, scan)),
  verifyAtHub: (db: Db, user: FieldUser, scan: HardwareScan) => scanned(verifyAtHub(db, user, scan)),
  verifyAtRc: (db: Db, user: FieldUser, scan: HardwareScan) => scanned(verifyAtRc(db, user, scan)),
};
