// The report of api/generate_csv/ (docs/csv.md#report-download): the records created within a
// date range, as CSV text: read page by page and written here on SQLite, written by PostgreSQL
// itself (report-lines.sqlite.ts, report-lines.postgres.ts).
import type { Static } from '@sinclair/typebox';
import { isLaterDay, localMidnight, REPORT_START_AFTER_END, type ReportRange } from '@veritas/shared/domain';
import { recordAuditAlone, type AuditBy } from '../audit/trail';
import { forEngine } from '../db/engines';
import type { Db } from '../db/schema';
import { BadRequest } from '../http-errors';
import { UTF8_BOM, csvLine } from './csv';
import { dayRange, type TimeRange } from './dates';
import { copiedReportLines } from './report-lines.postgres';
import { writtenReportLines } from './report-lines.sqlite';
import { REPORT_COLUMNS } from './rows';

/** The report's lines as CSV, a chunk at a time with its row count (report-lines.postgres.ts, report-lines.sqlite.ts). */
export type ReportLines = AsyncGenerator<{ text: string | Buffer; rows: number }>;

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
    const lines = forEngine(db, { postgres: copiedReportLines, sqlite: writtenReportLines })(db, range);
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
  if (isLaterDay(start, end)) throw new BadRequest('start_date', REPORT_START_AFTER_END);
  // Both are calendar days: the schema's format checked them.
  const range = dayRange(localMidnight(start)!, localMidnight(end)!);
  const details = { start_date: start, end_date: end };
  return { fileName: `report_${start}_${end}.csv`, text: csvReport(db, range, { by, details }) };
}
