// user/download_apk/: the mobile app package named by VERITAS_APK_PATH, for admins.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApkFile, NoQuery } from '@veritas/shared/domain';
import { auditByOf } from '../audit/actor';
import { recordAuditAlone } from '../audit/trail';
import { requireRole } from '../plugins/authentication';
import { openApk } from './apk-file';
import { sendStream } from '../streamed-body';
import { canDownloadApk } from '../auth/rights';

export const apkRoutes: FastifyPluginAsyncTypebox<{ apkPath?: string }> = async (app, { apkPath }) => {
  const { db } = app;
  // The answer is the package's bytes, streamed from the file; its schema documents it.
  app.get(
    '/user/download_apk/',
    {
      config: { errorField: 'error', audit: { action: 'apk.downloaded' } },
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
      const apk = await openApk(apkPath, request.log);
      await recordAuditAlone(db, auditByOf(request), {
        action: 'apk.downloaded',
        outcome: 'success',
        target: { kind: 'apk', label: 'veritas_app.apk' },
        details: { bytes: apk.size },
      });
      reply
        .type('application/vnd.android.package-archive')
        .header('content-disposition', 'attachment; filename="veritas_app.apk"')
        .header('content-length', apk.size)
        .header('cache-control', 'no-store');
      return sendStream(reply, apk.bytes);
    },
  );
};
