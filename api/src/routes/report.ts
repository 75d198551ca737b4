// api/generate_csv/ (CONTRACT.md "Report CSV"): the records created within a date range, as a
// CSV file streamed page by page.
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../auth/guard';
import type { Db } from '../db/schema';
import { badRequest, bodyOf, pagedBody } from '../http';
import { UTF8_BOM, csvLine } from '../report/csv';
import { dayRange, isDayText, localMidnight, type IsoRange } from '../report/dates';
import { REPORT_COLUMNS, reportCells, reportPages } from '../report/rows';

/**
 * better-sqlite3 holds the event loop for a page's whole query: 1,000 rows take about 10 ms
 * with their rendering (bench/report.ts), so other requests wait little, and the stream still
 * runs at some 80,000 rows a second. 2,000 rows made concurrent calls wait past 100 ms on a
 * busy machine.
 */
const PAGE_SIZE = 1000;

const dateError = (field: string, detail: string) => badRequest(field, detail, { error: detail });

/** A value of another type than text is kept, so it fails the format check instead of reading as missing. */
const dayField = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value.trim() : JSON.stringify(value));

/** The requested days, validated: both present, real calendar days, start not after end. */
function reportDays(body: unknown): { start: string; end: string; range: IsoRange } {
  const fields = bodyOf(body);
  const start = dayField(fields.start_date);
  const end = dayField(fields.end_date);
  if (!start || !end) throw dateError(start ? 'end_date' : 'start_date', 'Both start and end dates are required');
  const midnightOf = (field: string, label: string, day: string) => {
    if (!isDayText(day)) throw dateError(field, `${label} must be a date in the form YYYY-MM-DD.`);
    const midnight = localMidnight(day);
    if (!midnight) throw dateError(field, `${label} ${day} is not a valid calendar date.`);
    return midnight;
  };
  const first = midnightOf('start_date', 'Start date', start);
  const last = midnightOf('end_date', 'End date', end);
  if (first > last) throw dateError('start_date', 'Start date cannot be later than end date');
  return { start, end, range: dayRange(first, last) };
}

async function* csvReport(db: Db, range: IsoRange): AsyncGenerator<string> {
  yield UTF8_BOM + csvLine(REPORT_COLUMNS);
  for await (const page of reportPages(db, range, PAGE_SIZE)) {
    yield page.map((record) => csvLine(reportCells(record))).join('');
  }
}

export async function reportRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.post('/api/generate_csv/', async (request, reply) => {
    await requireUser(db, request);
    const { start, end, range } = reportDays(request.body);
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="report_${start}_${end}.csv"`)
      .header('cache-control', 'no-store');
    return reply.send(pagedBody(csvReport(db, range)));
  });
}
