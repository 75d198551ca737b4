// The report of api/generate_csv/ (docs/csv.md#report-download): the records created within a
// date range, as CSV text: read page by page and written here on SQLite, written by PostgreSQL itself.
import type { Static } from '@sinclair/typebox';
import type { ReportRange } from '@veritas/shared/domain';
import { recordAuditAlone, type AuditBy } from '../audit/trail';
import type { Db } from '../db/schema';
import { BadRequest } from '../http-errors';
import { UTF8_BOM, csvLine } from './csv';
import { dayRange, localMidnight, type TimeRange } from './dates';
import { copiedReportLines } from './copy-report';
import { REPORT_COLUMNS, reportCells, reportPages } from './rows';

/**
 * better-sqlite3 holds the event loop for a page's whole query, rendering included: pages this
 * small keep other requests' waits short while the stream keeps its pace; twice as many rows made
 * concurrent calls wait past their goal on a busy machine (bench/report.ts measures both).
 */
const SQLITE_PAGE_SIZE = 1000;

/** SQLite: the report's lines written here from JSON pages, a page at a time with its row count. */
async function* writtenReportLines(db: Db, range: TimeRange) {
  for await (const page of reportPages(db, range, SQLITE_PAGE_SIZE)) {
    yield { text: page.map((record) => csvLine(reportCells(record))).join(''), rows: page.length };
  }
}

/**
 * The report's text. Once it is read to its end, or the download stops, its audit entry is
 * written: the dates, the rows sent, and whether the whole report was.
 */
async function* csvReport(
  db: Db,
  range: TimeRange,
  audit: { by: AuditBy; details: object },
): AsyncGenerator<string | Buffer> {
  let rows = 0;
  let complete = false;
  try {
    yield UTF8_BOM + csvLine(REPORT_COLUMNS);
    const lines = db.pg ? copiedReportLines(db, db.pg, range) : writtenReportLines(db, range);
    for await (const chunk of lines) {
      rows += chunk.rows;
      yield chunk.text;
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
