// app/* (the mobile app of field staff): sign-in with a bearer token, the doorstep check and
// submission, and the verifications at hub and return centre. JSON in and out; the token in the
// Authorization header is the only credential (no cookies, hence no XSRF check; see cookies.ts).
// The scan engine refuses in its own terms (ScanRefusal); this is where a refusal becomes an answer.
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { deviceError } from '@veritas/shared/domain';
import { revokeSession, startAppSession } from '../auth/sessions';
import { Credentials, signInUser } from '../auth/sign-in';
import { BadRequest, Conflict, Forbidden, NotFound, type DomainError } from '../errors';
import { MessageAnswer, Text } from '../schemas';
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

const MAX_TRACKING_ID_LENGTH = 64;
const MAX_TEXT_LENGTH = 128;

/** Field staff: operators at the doorstep, executives and incharges at hubs, anyone of a return centre. */
const canUseApp = (user: FieldUser) =>
  user.role === 'operators' || user.role === 'executive' || user.role === 'incharge' || user.organization === 'RC';

const scanText = (field: string, maxLength: number, options: { minLength?: number } = {}) =>
  Text(
    { missing: `${field} is required.`, maxLength: `${field} must be at most ${maxLength} characters.` },
    { maxLength, ...options },
  );

const HardwareScan = Type.Object({
  tracking_id: scanText('tracking_id', MAX_TRACKING_ID_LENGTH),
  hardware_id: scanText('hardware_id', MAX_TEXT_LENGTH),
});

const DeviceScan = Type.Object({
  ...HardwareScan.properties,
  // The MAC's form is checked by the engine; a model may be unreadable on the device.
  mac_address: scanText('mac_address', MAX_TEXT_LENGTH),
  model: scanText('model', MAX_TEXT_LENGTH, { minLength: 0 }),
});

/** Declared for the record: requireAppToken reads it before the schema is checked. */
const BearerHeaders = Type.Object({ authorization: Type.Optional(Type.String({ description: 'Bearer <token>' })) });

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const ScanAnswer = Type.Object({
  result: Type.String(),
  title: Type.String(),
  description: Type.String(),
  expected: Type.Object({ brand: Nullable(Type.String()), model: Nullable(Type.String()) }),
  found: Type.Object({ manufacturer: Nullable(Type.String()), model: Type.String() }),
});

const VerifyAnswer = Type.Object({
  result: Type.Literal('passed'),
  title: Type.String(),
  description: Type.String(),
  tracking_id: Type.String(),
});

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

/** app/login/: public, and answers errors with `res` like the console's sign-in. */
export const appSignInRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  app.post(
    '/app/login/',
    {
      config: { errorField: 'res' },
      schema: {
        body: Credentials,
        response: {
          200: Type.Object({ token: Type.String(), role: Type.String(), hub_code: Nullable(Type.String()) }),
        },
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
  const headers = BearerHeaders;

  app.post('/app/logout/', { schema: { headers, response: { 200: MessageAnswer } } }, async (request) => {
    await revokeSession(db, request.user.sessionId);
    return { message: 'Signed out' };
  });

  const device = { schema: { headers, body: DeviceScan, response: { 200: ScanAnswer } } };
  const hardware = { schema: { headers, body: HardwareScan, response: { 200: VerifyAnswer } } };
  app.post('/app/scan/check/', device, async (request) => scanned(checkDevice(db, request.user, request.body)));
  app.post('/app/scan/submit/', device, async (request) => scanned(submitDevice(db, request.user, request.body)));
  app.post('/app/scan/verify_hub/', hardware, async (request) => scanned(verifyAtHub(db, request.user, request.body)));
  app.post('/app/scan/verify_rc/', hardware, async (request) => scanned(verifyAtRc(db, request.user, request.body)));
};
