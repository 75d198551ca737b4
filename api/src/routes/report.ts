// api/generate_csv/ (docs/csv.md#report-download): the records created within a date range, as a
// CSV file streamed page by page. Errors carry `error` (the console's Download page reads it).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/schema';
import { BadRequest } from '../errors';
import { pagedBody } from '../http';
import { UTF8_BOM, csvLine } from '../report/csv';
import { dayRange, localMidnight, type IsoRange } from '../report/dates';
import { REPORT_COLUMNS, reportCells, reportPages } from '../report/rows';
import { Day } from '../schemas';

/**
 * better-sqlite3 holds the event loop for a page's whole query: 1,000 rows take about 10 ms
 * with their rendering (bench/report.ts), so other requests wait little, and the stream still
 * runs at some 80,000 rows a second. 2,000 rows made concurrent calls wait past 100 ms on a
 * busy machine.
 */
const PAGE_SIZE = 1000;

/** A day of the range; a value of another type than text reads as a badly written day. */
const ReportDay = (label: string) => {
  const form = `${label} must be a date in the form YYYY-MM-DD.`;
  return Day({
    missing: 'Both start and end dates are required',
    type: form,
    pattern: form,
    format: `${label} {value} is not a valid calendar date.`,
  });
};

const ReportRange = Type.Object({ start_date: ReportDay('Start date'), end_date: ReportDay('End date') });

async function* csvReport(db: Db, range: IsoRange): AsyncGenerator<string> {
  yield UTF8_BOM + csvLine(REPORT_COLUMNS);
  for await (const page of reportPages(db, range, PAGE_SIZE)) {
    yield page.map((record) => csvLine(reportCells(record))).join('');
  }
}

export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // No response schema: the CSV is streamed as its pages are read.
  app.post(
    '/api/generate_csv/',
    { config: { errorField: 'error' }, schema: { body: ReportRange } },
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
      return reply.send(pagedBody(csvReport(app.db, dayRange(first, last))));
    },
  );
};
