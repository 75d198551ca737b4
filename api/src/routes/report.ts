// api/generate_csv/ (docs/csv.md#report-download): the records created within a date range, as a
// CSV file streamed page by page. Errors carry `error` (the console's Download page reads it).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ReportFile, ReportRange } from '@veritas/shared/domain';
import type { Db } from '../db/schema';
import { BadRequest } from '../errors';
import { pagedBody, sendStream } from '../http';
import { UTF8_BOM, csvLine } from '../report/csv';
import { dayRange, localMidnight, type IsoRange } from '../report/dates';
import { REPORT_COLUMNS, reportCells, reportPages } from '../report/rows';

/**
 * better-sqlite3 holds the event loop for a page's whole query: 1,000 rows take about 10 ms
 * with their rendering (bench/report.ts), so other requests wait little, and the stream still
 * runs at some 80,000 rows a second. 2,000 rows made concurrent calls wait past 100 ms on a
 * busy machine.
 */
const PAGE_SIZE = 1000;

async function* csvReport(db: Db, range: IsoRange): AsyncGenerator<string> {
  yield UTF8_BOM + csvLine(REPORT_COLUMNS);
  for await (const page of reportPages(db, range, PAGE_SIZE)) {
    yield page.map((record) => csvLine(reportCells(record))).join('');
  }
}

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
      const { start_date: start, end_date: end } = request.body;
      // Both are calendar days: the schema's format checked them.
      const first = localMidnight(start)!;
      const last = localMidnight(end)!;
      if (first > last) throw new BadRequest('start_date', 'Start date cannot be later than end date');
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="report_${start}_${end}.csv"`)
        .header('cache-control', 'no-store');
      return sendStream(reply, pagedBody(csvReport(app.db, dayRange(first, last))));
    },
  );
};
