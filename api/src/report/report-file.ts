// The report of api/generate_csv/ (docs/csv.md#report-download): the records created within a
// date range, as CSV text read page by page.
import type { Static } from '@sinclair/typebox';
import type { ReportRange } from '@veritas/shared/domain';
import { recordAuditAlone, type AuditBy } from '../audit/trail';
import type { Db } from '../db/schema';
import { BadRequest } from '../errors';
import { UTF8_BOM, csvLine } from './csv';
import { dayRange, localMidnight, type IsoRange } from './dates';
import { REPORT_COLUMNS, reportCells, reportPages } from './rows';

/**
 * better-sqlite3 holds the event loop for a page's whole query: 1,000 rows take about 10 ms
 * with their rendering (bench/report.ts), so other requests wait little, and the stream still
 * runs at some 80,000 rows a second. 2,000 rows made concurrent calls wait past 100 ms on a
 * busy machine.
 */
const PAGE_SIZE = 1000;

/**
 * The report's text. Once it is read to its end, or the download stops, its audit entry is
 * written: the dates, the rows sent, and whether the whole report was.
 */
async function* csvReport(db: Db, range: IsoRange, audit: { by: AuditBy; details: object }): AsyncGenerator<string> {
  let rows = 0;
  let complete = false;
  try {
    yield UTF8_BOM + csvLine(REPORT_COLUMNS);
    for await (const page of reportPages(db, range, PAGE_SIZE)) {
      rows += page.length;
      yield page.map((record) => csvLine(reportCells(record))).join('');
    }
    complete = true;
  } finally {
    await recordAuditAlone(db, audit.by, {
      action: 'report.downloaded',
      outcome: complete ? 'success' : 'failure',
      target: { kind: 'report', label: 'Device report' },
      details: { ...audit.details, rows, complete },
    });
  }
}

/** The report of a range, its file name and its text; a 400 when the range ends before it starts. */
export function reportFile(db: Db, by: AuditBy, { start_date: start, end_date: end }: Static<typeof ReportRange>) {
  // Both are calendar days: the schema's format checked them.
  const first = localMidnight(start)!;
  const last = localMidnight(end)!;
  if (first > last) throw new BadRequest('start_date', 'Start date cannot be later than end date');
  const details = { start_date: start, end_date: end };
  return { fileName: `report_${start}_${end}.csv`, text: csvReport(db, dayRange(first, last), { by, details }) };
}
