// app/* (the mobile app of field staff): sign-in with a bearer token, the doorstep check and
// submission, and the verifications at hub and return centre. JSON in and out; the token in the
// Authorization header is the only credential (no cookies, hence no XSRF check; see cookies.ts).
// The scan engine refuses in its own terms (ScanRefusal); this is where a refusal becomes an answer.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AppLoginAnswer,
  Credentials,
  DeviceScan,
  HardwareScan,
  MessageAnswer,
  ScanAnswer,
  VerifyAnswer,
  deviceError,
} from '@veritas/shared/domain';
import { revokeSession, startAppSession } from '../auth/sessions';
import { signInUser } from '../auth/sign-in';
import { BadRequest, Conflict, Forbidden, NotFound, type DomainError } from '../errors';
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
} from '../scan/engine';

/** Field staff: operators at the doorstep, executives and incharges at hubs, anyone of a return centre. */
const canUseApp = (user: FieldUser) =>
  user.role === 'operators' || user.role === 'executive' || user.role === 'incharge' || user.organization === 'RC';

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

const tags = ['mobile app'];

/** app/login/: public, and answers errors with `res` like the console's sign-in. */
export const appSignInRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  app.post(
    '/app/login/',
    {
      config: { errorField: 'res' },
      schema: {
        tags,
        summary: 'Sign in to the mobile app: answers the bearer token of its calls',
        body: Credentials,
        response: { 200: AppLoginAnswer },
      },
    },
    async (request) => {
      const { id, role } = await signInUser(db, request.body, request.ip);
      const user = (await fieldUserOf(db, id))!;
      if (!canUseApp(user)) throw new Forbidden('This account cannot use the mobile app.');
      return { token: await startAppSession(db, id), role, hub_code: user.groupCode };
    },
  );
};

/** For the bearer-token scope (requireAppToken). */
export const appRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  // No body: the token names the session to end.
  const logout = { tags, summary: "End the token's session", response: { 200: MessageAnswer } };
  app.post('/app/logout/', { schema: logout }, async (request) => {
    await revokeSession(db, request.user.sessionId);
    return { message: 'Signed out' };
  });

  const device = (summary: string) => ({ schema: { tags, summary, body: DeviceScan, response: { 200: ScanAnswer } } });
  const hardware = (summary: string) => ({
    schema: { tags, summary, body: HardwareScan, response: { 200: VerifyAnswer } },
  });
  app.post('/app/scan/check/', device('Check a device at the doorstep without submitting it'), async (request) =>
    scanned(checkDevice(db, request.user, request.body)),
  );
  app.post('/app/scan/submit/', device('Submit a device at the doorstep'), async (request) =>
    scanned(submitDevice(db, request.user, request.body)),
  );
  app.post('/app/scan/verify_hub/', hardware('Verify a submitted device at its hub'), async (request) =>
    scanned(verifyAtHub(db, request.user, request.body)),
  );
  app.post('/app/scan/verify_rc/', hardware('Verify a device at a return centre'), async (request) =>
    scanned(verifyAtRc(db, request.user, request.body)),
  );
};
