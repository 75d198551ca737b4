// The report's pure parts: CSV cells and lines, report days, and a record's cells.
import { LINE_END, UTF8_BOM, csvCell, csvLine } from '../src/report/csv';
import { localMidnight } from '@veritas/shared/domain';
import { dayRange } from '../src/report/dates';
import { REPORT_COLUMNS, reportCells, type ReportRow } from '../src/report/rows';

describe('CSV cells (RFC 4180 and formula injection)', () => {
  test('plain text is written as is; null, undefined and empty text are empty cells', () => {
    expect(csvCell('BLR01')).toBe('BLR01');
    expect(csvCell('2025-01-02T03:04:05.678Z')).toBe('2025-01-02T03:04:05.678Z');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('')).toBe('');
  });

  test('a cell with a comma, a quote, CR or LF is quoted and its quotes doubled', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line1\nline2')).toBe('"line1\nline2"');
    expect(csvCell('line1\r\nline2')).toBe('"line1\r\nline2"');
    expect(csvCell('"')).toBe('""""');
  });

  test('a cell starting with = + - @ TAB or CR is prefixed with a single quote', () => {
    expect(csvCell('=SUM(A1:A2)')).toBe("'=SUM(A1:A2)");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe('"\'\rx"');
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
  });

  test('those characters elsewhere in a cell are left alone', () => {
    expect(csvCell('a=b+c-d@e')).toBe('a=b+c-d@e');
    expect(csvCell("'quoted")).toBe("'quoted");
  });

  test('a line joins its cells with commas and ends with CRLF', () => {
    expect(csvLine(['a', null, 'b,c', undefined])).toBe('a,,"b,c",\r\n');
    expect(LINE_END).toBe('\r\n');
  });

  test('the byte order mark is U+FEFF (EF BB BF in UTF-8)', () => {
    expect(Buffer.from(UTF8_BOM, 'utf8')).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });
});

describe('report days', () => {
  test('the range runs from the first millisecond of the start day to the last of the end day, local time', () => {
    const range = dayRange(new Date(2025, 0, 31), new Date(2025, 1, 1));
    expect(range.first).toBe(new Date(2025, 0, 31).getTime());
    expect(range.last).toBe(new Date(2025, 1, 2).getTime() - 1);
  });

  test('the range holds the ends of the calendar: years 0000 and 9999', () => {
    const range = dayRange(localMidnight('0000-01-01')!, localMidnight('9999-12-31')!);
    expect(new Date(range.first).getFullYear()).toBe(0);
    expect(new Date(range.last).getFullYear()).toBe(9999);
    expect(new Date(range.last + 1).getFullYear()).toBe(10000);
  });
});

describe('report cells of a record', () => {
  const row: ReportRow = [
    1,
    'T1',
    'BLR01',
    '2025-01-01T10:00:00.000Z',
    'mobile',
    0,
    'BlindBrand',
    'BlindModel',
    'Galaxy S23',
    'Samsung',
    1,
    '2025-01-01T11:00:00.000Z',
    'wm1',
    'Galaxy S23',
    'Samsung Electronics',
    'passed',
    1,
    '2025-01-02T11:00:00.000Z',
    'exec1',
    'rc1',
    '2025-01-03T11:00:00.000Z',
    1,
  ];

  test('status per docs/screens.md#status: Pending, Submitted for verification, verified at hub, Detatched', () => {
    const status = (isSubmit: number, isVerified: number, isVerifiedRcBy: number) => {
      const flagged: ReportRow = [...row];
      [flagged[10], flagged[16], flagged[21]] = [isSubmit, isVerified, isVerifiedRcBy];
      return reportCells(flagged)[REPORT_COLUMNS.indexOf('status')];
    };
    expect([status(0, 0, 0), status(1, 0, 0), status(1, 1, 0), status(1, 1, 1)]).toEqual([
      'Pending',
      'Submitted for verification',
      'verified at hub',
      'Detatched',
    ]);
  });

  test('one cell per column, in column order', () => {
    const cells = reportCells(row);
    expect(cells).toHaveLength(REPORT_COLUMNS.length);
    expect(Object.fromEntries(REPORT_COLUMNS.map((column, i) => [column, cells[i]]))).toEqual({
      tracking_id: 'T1',
      hub_code: 'BLR01',
      created_date: '2025-01-01T10:00:00.000Z',
      device_type: 'mobile',
      expected_brand: 'Samsung',
      expected_model: 'Galaxy S23',
      is_blindpick: 'false',
      status: 'Detatched',
      submitted_by: 'wm1',
      submit_time: '2025-01-01T11:00:00.000Z',
      submitted_device: 'Galaxy S23',
      submitted_manufacturer: 'Samsung Electronics',
      device_result: 'passed',
      verified_by: 'exec1',
      verify_time: '2025-01-02T11:00:00.000Z',
      verified_by_rc: 'rc1',
      verify_time_rc: '2025-01-03T11:00:00.000Z',
    });
  });

  test('a blind pick expects the blind brand and model', () => {
    const blind: ReportRow = [...row];
    blind[5] = 1;
    const cells = reportCells(blind);
    expect(cells[REPORT_COLUMNS.indexOf('expected_brand')]).toBe('BlindBrand');
    expect(cells[REPORT_COLUMNS.indexOf('expected_model')]).toBe('BlindModel');
    expect(cells[REPORT_COLUMNS.indexOf('is_blindpick')]).toBe('true');
  });
});
