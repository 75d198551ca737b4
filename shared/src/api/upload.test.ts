/** @jest-environment node */
import {
  isCsvFileName,
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_CHUNKS,
  NOT_A_CSV_FILE,
  UPLOAD_CHUNK_BYTES,
  UPLOAD_TOO_LARGE,
} from './upload';

describe('upload rules (docs/csv.md#limits)', () => {
  test('chunks of 1 MiB, at most 100 of them: files up to 100 MiB', () => {
    expect(UPLOAD_CHUNK_BYTES).toBe(1_048_576);
    expect(MAX_UPLOAD_CHUNKS).toBe(100);
    expect(MAX_UPLOAD_BYTES).toBe(104_857_600);
  });

  test('isCsvFileName: the name ends in .csv, in any case', () => {
    expect(['shipments.csv', 'EXPORT.CSV', 'a.b.Csv', '.csv'].every(isCsvFileName)).toBe(true);
    expect(['shipments.txt', 'data.csv.exe', 'csv', 'shipments.csv '].some(isCsvFileName)).toBe(false);
  });

  test("the refusals read as docs/errors.md#upload has them (its 'MB' are MiB)", () => {
    expect(NOT_A_CSV_FILE).toBe('Invalid file type: please choose a .csv file');
    expect(UPLOAD_TOO_LARGE).toBe('File is too large: the maximum size is 100 MB');
  });
});
