// user/download_apk/: the mobile app package named by VERITAS_APK_PATH, for admins only
// (docs/screens.md#download-apk, docs/screens.md#server-side-rights).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_PASSWORD, ADMIN_USERNAME, build, signIn, type Client } from './support/build';
import { rawAnswer } from './support/raw-answer';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-apk-'));
const apkFile = path.join(folder, 'app-release.apk');
/** Not text, and large enough to take several chunks on the way. */
const APK = crypto.randomBytes(700 * 1024 + 3);
fs.writeFileSync(apkFile, APK);
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

/** A server configured with the package file; the tests start others on its database. */
const api = build({
  server: { apkPath: apkFile },
  groups: [{ code: 'HUB1', organization: 'hub' }],
  users: [
    { username: 'exec1', role: 'executive', group: 'HUB1' },
    { username: 'incharge1', role: 'incharge', group: 'HUB1' },
    { username: 'ops1', role: 'central_ops' },
    { username: 'admin1', role: 'admin' },
  ],
});
const serve = (options: { apkPath?: string }) => api.start(options);

/** A GET of the APK as the client's session (its cookies), its bytes as sent. */
async function downloadApk(client: Client, baseUrl: string, headers: Record<string, string> = {}) {
  const cookie = client.cookieHeader();
  const answer = await rawAnswer(`${baseUrl}/veritas/user/download_apk/`, {
    headers: { ...(cookie ? { cookie } : {}), ...headers },
  });
  return { ...answer, json: () => JSON.parse(answer.bytes.toString('utf8')) as unknown };
}

describe('download_apk', () => {
  test('an admin and a super_admin receive the exact bytes as application/vnd.android.package-archive, attachment veritas_app.apk, with Content-Length', async () => {
    for (const username of ['admin1', ADMIN_USERNAME]) {
      const client = await signIn(api.url, username, username === ADMIN_USERNAME ? ADMIN_PASSWORD : undefined);
      const answer = await downloadApk(client, api.url);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('application/vnd.android.package-archive');
      expect(answer.headers['content-disposition']).toBe('attachment; filename="veritas_app.apk"');
      expect(answer.headers['content-length']).toBe(String(APK.length));
      expect(answer.bytes.equals(APK)).toBe(true);
    }
  });

  test('is sent as is (not compressed) even when the client accepts gzip', async () => {
    const answer = await downloadApk(await signIn(api.url, 'admin1'), api.url, { 'accept-encoding': 'gzip' });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['content-length']).toBe(String(APK.length));
    expect(answer.bytes.equals(APK)).toBe(true);
  });

  test.each(['executive', 'incharge', 'central_ops'])(
    '%s: 403 {detail, error}, as only admin and super_admin may',
    async (role) => {
      const username = { executive: 'exec1', incharge: 'incharge1', central_ops: 'ops1' }[role]!;
      const answer = await downloadApk(await signIn(api.url, username), api.url);
      expect(answer.status).toBe(403);
      const message = 'Only an admin or super admin can download the mobile app package.';
      expect(answer.json()).toEqual({ detail: message, error: message });
    },
  );

  test('answers 401 without a session', async () => {
    expect((await downloadApk(api.client(), api.url)).status).toBe(401);
  });

  test('with no package configured: 404 {detail, error} naming VERITAS_APK_PATH', async () => {
    const unconfigured = await serve({});
    const answer = await downloadApk(await signIn(unconfigured.url, 'admin1'), unconfigured.url);
    expect(answer.status).toBe(404);
    const message = 'No mobile app package is configured on this server (VERITAS_APK_PATH).';
    expect(answer.json()).toEqual({ detail: message, error: message });
  });

  test('with a configured file that is missing, or a folder: 404 {detail, error} saying it was not found', async () => {
    const message = 'The mobile app package configured on this server (VERITAS_APK_PATH) was not found.';
    for (const apkPath of [path.join(folder, 'missing.apk'), folder]) {
      const misconfigured = await serve({ apkPath });
      const answer = await downloadApk(await signIn(misconfigured.url, 'admin1'), misconfigured.url);
      expect(answer.status).toBe(404);
      expect(answer.json()).toEqual({ detail: message, error: message });
    }
  });

  test('VERITAS_APK_PATH names the file when no option is given', async () => {
    process.env.VERITAS_APK_PATH = apkFile;
    try {
      const fromEnv = await serve({});
      const answer = await downloadApk(await signIn(fromEnv.url, 'admin1'), fromEnv.url);
      expect(answer.status).toBe(200);
      expect(answer.bytes.equals(APK)).toBe(true);
    } finally {
      delete process.env.VERITAS_APK_PATH;
    }
  });
});
