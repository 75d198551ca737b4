// user/download_apk/: the mobile app package named by VERITAS_APK_PATH, for admins.
import fs from 'node:fs/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApkFile, NoQuery } from '@veritas/shared/domain';
import { requireRole } from '../plugins/authentication';
import { NotFound } from '../errors';
import { sendStream } from '../http';
import { canDownloadApk } from '../roles';

export const apkRoutes: FastifyPluginAsyncTypebox<{ apkPath?: string }> = async (app, { apkPath }) => {
  // The answer is the package's bytes, streamed from the file; its schema documents it.
  app.get(
    '/user/download_apk/',
    {
      config: { errorField: 'error' },
      schema: {
        tags: ['users'],
        summary: 'The mobile app package',
        querystring: NoQuery,
        response: {
          200: {
            description: 'The package',
            content: { 'application/vnd.android.package-archive': { schema: ApkFile } },
          },
        },
      },
      preValidation: requireRole(canDownloadApk, 'Only an admin or super admin can download the mobile app package.'),
    },
    async (request, reply) => {
      if (!apkPath) throw new NotFound('No mobile app package is configured on this server (VERITAS_APK_PATH).');
      // Length and bytes come from one open file, so a package swapped in meanwhile cannot make them disagree.
      const file = await fs.open(apkPath).catch(() => null);
      const stats = await file?.stat();
      if (!file || !stats?.isFile()) {
        await file?.close();
        request.log.warn({ apkPath }, 'VERITAS_APK_PATH names no readable file');
        throw new NotFound('The mobile app package configured on this server (VERITAS_APK_PATH) was not found.');
      }
      reply
        .type('application/vnd.android.package-archive')
        .header('content-disposition', 'attachment; filename="veritas_app.apk"')
        .header('content-length', stats.size)
        .header('cache-control', 'no-store');
      return sendStream(reply, file.createReadStream());
    },
  );
};
