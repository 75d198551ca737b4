// api/upload/ (docs/csv.md#shipment-upload): one call per chunk of a shipment CSV; the call that
// brings the last missing chunk answers the upload's result.
import { Type, type Static } from '@sinclair/typebox';

const MiB = 1_048_576;

/** One chunk of a shipment CSV: the console cuts a file into chunks this long, the server takes none longer. */
export const UPLOAD_CHUNK_BYTES = MiB;
/** The most chunks of one file. */
export const MAX_UPLOAD_CHUNKS = 100;
/** The largest file, 100 MiB: the console refuses a larger one before sending it. */
export const MAX_UPLOAD_BYTES = MAX_UPLOAD_CHUNKS * UPLOAD_CHUNK_BYTES;

/** A shipment file's name ends in .csv, in any case. */
export const isCsvFileName = (name: string): boolean => /\.csv$/i.test(name);

// The refusals' texts are docs/errors.md#upload's; its 'MB' are MiB.
export const NOT_A_CSV_FILE = 'Invalid file type: please choose a .csv file';
export const UPLOAD_TOO_LARGE = `File is too large: the maximum size is ${MAX_UPLOAD_BYTES / MiB} MB`;

export const UploadReceipt = Type.Object({ message: Type.String(), chunk_index: Type.Integer() });

export const UploadResult = Type.Object({
  message: Type.String(),
  processed: Type.Integer(),
  skipped: Type.Integer(),
  duplicates: Type.Array(Type.Object({ row: Type.Integer(), tracking_id: Type.String() }), {
    description: 'At most the first 1000; duplicates_total counts them all.',
  }),
  errors: Type.Array(Type.Object({ row: Type.Integer(), errors: Type.Array(Type.String()) }), {
    description: 'At most the first 1000; errors_total counts them all.',
  }),
  duplicates_total: Type.Integer(),
  errors_total: Type.Integer(),
});
export type UploadResult = Static<typeof UploadResult>;

/** The chunk's receipt, or the result once the upload is complete. */
export const UploadAnswer = Type.Union([UploadReceipt, UploadResult]);

/** The multipart form of a chunk, for the documentation: its parts are read as a stream, in this order. */
export const UploadForm = Type.Object({
  upload_id: Type.String({ format: 'uuid', description: 'One per file, the same for each of its chunks.' }),
  chunk_index: Type.Integer({ minimum: 0 }),
  total_chunks: Type.Integer({ minimum: 1 }),
  file: Type.String({ format: 'binary', description: 'At most 1 MiB of the CSV file (its name ends in .csv).' }),
});
