// The mobile app package of user/download_apk/, the file named by VERITAS_APK_PATH.
import fs from 'node:fs/promises';
import type { ReadStream } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { NotFound } from '../http-errors';

/** The package's length and bytes; a 404 when none is configured or the path names no readable file. */
export async function openApk(
  apkPath: string | undefined,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<{ size: number; bytes: ReadStream }> {
  if (!apkPath) throw new NotFound('No mobile app package is configured on this server (VERITAS_APK_PATH).');
  // Length and bytes come from one open file, so a package swapped in meanwhile cannot make them disagree.
  const file = await fs.open(apkPath).catch(() => null);
  const stats = await file?.stat();
  if (!file || !stats?.isFile()) {
    await file?.close();
    log.warn({ apkPath }, 'VERITAS_APK_PATH names no readable file');
    throw new NotFound('The mobile app package configured on this server (VERITAS_APK_PATH) was not found.');
  }
  return { size: stats.size, bytes: file.createReadStream() };
}
