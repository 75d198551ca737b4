import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from './server';

/** The mobile app package Download APK serves (bytes the data test compares). */
export const APK_BYTES = 'veritas e2e mobile app package\n';

export default async function globalSetup(): Promise<void> {
  const apkPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-e2e-apk-')), 'app-release.apk');
  fs.writeFileSync(apkPath, APK_BYTES);
  const server = await startServer({ VERITAS_APK_PATH: apkPath });
  process.env.E2E_URL = server.url;
  (globalThis as Record<string, unknown>).__veritasServer = server;
}
