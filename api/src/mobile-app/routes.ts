// app/* (the mobile app of field staff): sign-in with a bearer token, the doorstep check and
// submission, and the verifications at hub and return centre. JSON in and out; the token in the
// Authorization header is the only credential (no cookies, hence no XSRF check; see cookies.ts).
// The field scans refuse in their own terms (ScanRefusal); scan/answers.ts turns a refusal into an answer.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  AppLoginAnswer,
  Credentials,
  DeviceScan,
  HardwareScan,
  MessageAnswer,
  ScanAnswer,
  VerifyAnswer,
} from '@veritas/shared/domain';
import { signOut } from '../auth/sessions';
import { appScans, signInToApp } from '../scan/answers';
import type { FieldUser } from '../scan/field-scans';
import { signInAudit } from '../auth/routes';
import { RETRY_AFTER } from '../plugins/openapi';

const tags = ['mobile app'];

/** The app's caller, with the client address the audit entry of a case its scan opens names. */
const fieldCaller = (request: FastifyRequest): FieldUser => ({ ...request.user, address: request.ip });

/** app/login/: public, and answers errors with `res` like the console's sign-in. */
export const appSignInRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  app.post(
    '/app/login/',
    {
      config: { errorField: 'res', audit: signInAudit('app'), answerHeaders: { 429: { 'retry-after': RETRY_AFTER } } },
      schema: {
        tags,
        summary: 'Sign in to the mobile app: answers the bearer token of its calls',
        body: Credentials,
        response: { 200: AppLoginAnswer },
      },
    },
    async (request) => signInToApp(db, request.body, request.ip),
  );
};

/** For the bearer-token scope (requireAppToken). */
export const appRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  // No body: the token names the session to end.
  const logout = { tags, summary: "End the token's session", response: { 200: MessageAnswer } };
  app.post('/app/logout/', { schema: logout }, async (request) => {
    await signOut(db, request.user.sessionId, request.user, request.ip, 'app');
    return { message: 'Signed out' };
  });

  const device = (summary: string) => ({ schema: { tags, summary, body: DeviceScan, response: { 200: ScanAnswer } } });
  const hardware = (summary: string) => ({
    schema: { tags, summary, body: HardwareScan, response: { 200: VerifyAnswer } },
  });
  app.post('/app/scan/check/', device('Check a device at the doorstep without submitting it'), async (request) =>
    appScans.check(db, fieldCaller(request), request.body),
  );
  app.post('/app/scan/submit/', device('Submit a device at the doorstep'), async (request) =>
    appScans.submit(db, fieldCaller(request), request.body),
  );
  app.post('/app/scan/verify_hub/', hardware('Verify a submitted device at its hub'), async (request) =>
    appScans.verifyAtHub(db, fieldCaller(request), request.body),
  );
  app.post('/app/scan/verify_rc/', hardware('Verify a device at a return centre'), async (request) =>
    appScans.verifyAtRc(db, fieldCaller(request), request.body),
  );
};
