// app/* (the mobile app of field staff): sign-in with a bearer token, the doorstep check and
// submission, and the verifications at hub and return centre. JSON in and out; the token in the
// Authorization header is the only credential (no cookies, hence no XSRF check; see cookies.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { APP_PREFIX } from '../auth/cookies';
import { authenticate, revokeSession, startAppSession, type SessionUser } from '../auth/sessions';
import { loginError, signInUser } from '../auth/signIn';
import type { Db } from '../db/schema';
import { HttpError, badRequest, bodyOf, text } from '../http';
import { checkDevice, fieldUserOf, submitDevice, verifyAtHub, verifyAtRc, type DeviceScan, type FieldUser, type HardwareScan } from '../scan/engine';

const MAX_TRACKING_ID_LENGTH = 64;
const MAX_TEXT_LENGTH = 128;

/** Field staff: operators at the doorstep, executives and incharges at hubs, anyone of a return centre. */
const canUseApp = (user: FieldUser) => user.role === 'operators' || user.role === 'executive' || user.role === 'incharge' || user.organization === 'RC';

function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

function requiredText(body: Record<string, unknown>, field: string, maxLength: number, { allowEmpty = false } = {}): string {
  if (typeof body[field] !== 'string') throw badRequest(field, `${field} is required.`);
  const value = text(body[field]);
  if (!value && !allowEmpty) throw badRequest(field, `${field} is required.`);
  if (value.length > maxLength) throw badRequest(field, `${field} must be at most ${maxLength} characters.`);
  return value;
}

function hardwareScan(requestBody: unknown): HardwareScan {
  const body = bodyOf(requestBody);
  return { tracking_id: requiredText(body, 'tracking_id', MAX_TRACKING_ID_LENGTH), hardware_id: requiredText(body, 'hardware_id', MAX_TEXT_LENGTH) };
}

function deviceScan(requestBody: unknown): DeviceScan {
  const body = bodyOf(requestBody);
  return {
    ...hardwareScan(body),
    // The MAC's form is checked by the engine; a model may be unreadable on the device.
    mac_address: requiredText(body, 'mac_address', MAX_TEXT_LENGTH),
    model: requiredText(body, 'model', MAX_TEXT_LENGTH, { allowEmpty: true }),
  };
}

export async function appRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const prefix = APP_PREFIX.slice('/veritas'.length);

  async function fieldUser(request: FastifyRequest): Promise<FieldUser & { sessionId: string }> {
    const session: SessionUser | null = await authenticate(db, bearerToken(request), 'app');
    const user = session && (await fieldUserOf(db, session.id));
    if (!session || !user) throw new HttpError(401, { detail: 'Sign in with the app first: the token is missing, expired or revoked.' });
    return { ...user, sessionId: session.sessionId };
  }

  app.post(`${prefix}login/`, async (request) => {
    const { id, role } = await signInUser(db, request.body, request.ip);
    const user = (await fieldUserOf(db, id))!;
    if (!canUseApp(user)) throw loginError(403, 'This account cannot use the mobile app.');
    return { token: await startAppSession(db, id), role, hub_code: user.groupCode };
  });

  app.post(`${prefix}logout/`, async (request) => {
    await revokeSession(db, (await fieldUser(request)).sessionId);
    return { message: 'Signed out' };
  });

  app.post(`${prefix}scan/check/`, async (request) => checkDevice(db, await fieldUser(request), deviceScan(request.body)));
  app.post(`${prefix}scan/submit/`, async (request) => submitDevice(db, await fieldUser(request), deviceScan(request.body)));
  app.post(`${prefix}scan/verify_hub/`, async (request) => verifyAtHub(db, await fieldUser(request), hardwareScan(request.body)));
  app.post(`${prefix}scan/verify_rc/`, async (request) => verifyAtRc(db, await fieldUser(request), hardwareScan(request.body)));
}
