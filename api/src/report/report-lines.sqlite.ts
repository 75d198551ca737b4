// SQLite: the report's lines written here from JSON pages (csv.ts), a page at a time with its row count.
import { timeMs } from '@veritas/shared/domain';
import { sql } from 'kysely';
import type { Db } from '../db/schema';
import { csvLine } from './csv';
import type { TimeRange } from './dates';
import type { ReportLines } from './report-file';
import {
  beforeRange,
  RECORD_COLUMNS,
  recordsAfter,
  reportCells,
  ROW_FIELDS,
  type ReportKey,
  type ReportRow,
} from './rows';

/**
 * better-sqlite3 holds the event loop for a page's whole query, rendering included: pages this
 * small keep other requests' waits short while the stream keeps its pace; twice as many rows made
 * concurrent calls wait past their goal on a busy machine (bench/report.ts measures both).
 */
const SQLITE_PAGE_SIZE = 1000;

/** The records whose created_ms lies in the range, one keyset page at a time. */
async function* reportPages(db: Db, range: TimeRange, pageSize: number): AsyncGenerator<ReportRow[]> {
  // Raw: json_array, which Kysely's builder does not have.
  const rowJson = sql<string>`json_array(${sql.join(ROW_FIELDS.map((field) => sql.ref(field)))})`;
  const pageAfter = async (from: ReportKey): Promise<ReportRow[]> => {
    // The page is cut first, so the user names are joined for its rows only.
    const page = await db.kysely
      .selectFrom(
        recordsAfter(db, range, from)
          .select([...RECORD_COLUMNS, 'created_ms'])
          .limit(pageSize)
          .as('d'),
      )
      .leftJoin('users as sb', 'sb.id', 'd.submitted_by_id')
      .leftJoin('users as vb', 'vb.id', 'd.verified_by_id')
      .leftJoin('users as rb', 'rb.id', 'd.verified_by_rc_id')
      .select(rowJson.as('json'))
      .orderBy('d.created_ms')
      .orderBy('d.id')
      .execute();
    return page.map((row) => JSON.parse(row.json) as ReportRow);
  };

  let rows = await pageAfter(beforeRange(range));
  while (rows.length > 0) {
    yield rows;
    if (rows.length < pageSize) return;
    const [id, , , createdDate] = rows[rows.length - 1]!;
    // created_ms is derived from created_date by this very function (derived-columns.ts): the key
    // costs no column sent with every row.
    rows = await pageAfter({ created_ms: timeMs(createdDate)!, id });
  }
}

export async function* writtenReportLines(db: Db, range: TimeRange): ReportLines {
  for await (const page of reportPages(db, range, SQLITE_PAGE_SIZE)) {
    yield { text: page.map((record) => csvLine(reportCells(record))).join(''), rows: page.length };
  }
}
