// Answers that are files, streamed as they are read.
import { Type } from '@sinclair/typebox';

export const ReportFile = Type.String({
  description:
    'UTF-8 CSV with a byte-order mark: a header line, then one line per record (docs/csv.md#report-download).',
});

export const ApkFile = Type.String({ format: 'binary', description: 'The mobile app package.' });
