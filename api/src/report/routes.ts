// api/generate_csv/ (docs/csv.md#report-download): the records created within a date range, as a
// CSV file streamed page by page. Errors carry `error` (the console's Download page reads it).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ReportFile, ReportRange } from '@veritas/shared/domain';
import { auditByOf } from '../audit/actor';
import { pagedBody, sendStream } from '../streamed-body';
import { reportFile } from './report-file';

export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The CSV is streamed as its pages are read; its schema documents it.
  app.post(
    '/api/generate_csv/',
    {
      config: { errorField: 'error' },
      schema: {
        tags: ['devices'],
        summary: 'The records created within a date range, as a CSV file',
        body: ReportRange,
        response: { 200: { description: 'The report', content: { 'text/csv': { schema: ReportFile } } } },
      },
    },
    async (request, reply) => {
      const report = reportFile(app.db, auditByOf(request), request.body);
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${report.fileName}"`)
        .header('cache-control', 'no-store');
      return sendStream(reply, pagedBody(report.text));
    },
  );
};
