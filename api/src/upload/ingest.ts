// A complete upload's chunks into device records: read one chunk at a time, decoded and parsed
// as streams (a character or a row may span chunks), stored in batches, under the upload's lease
// (lease.ts), renewed between batches. A run taken over from an instance that died reads the file
// again from its first row, in the same order: the rows that instance stored count as stored
// (store-records.ts), so the counts, the errors and the duplicates listed are those of one clean run.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { UploadResult } from '@veritas/shared/domain';
import type { Db } from '../db/schema';
import { BadRequest } from '../errors';
import { CsvRecordReader, type CsvRecord } from './csv-records';
import { checkRow, readHeader, type ColumnPositions, type ShipmentRecord } from './shipment-rows';
import { IngestStopped, LeaseLost, type Lease } from './lease';
import { chunkData, finishUpload } from './store';
import { recordStore, type RecordStore } from './store-records';
import { scheduleSearchIndexing } from '../devices/search-index';
import { Utf8Text } from './utf8-text';

/**
 * Rows per insert (one transaction on SQLite, one statement on PostgreSQL). better-sqlite3 is
 * synchronous, so each batch blocks the event loop: small batches, with a turn of the loop between
 * them, keep other requests served during a long ingest.
 */
const BATCH_ROWS = 1000;
/** Entries listed in duplicates and errors; the totals count them all. */
export const LISTED_MAX = 1000;

const rows = (count: number) => `${count} row${count === 1 ? '' : 's'}`;

/**
 * A copy that does not share memory with the text it was cut from: V8 keeps a whole decoded chunk
 * (up to 2 MB) alive for any slice of it that is kept, and the lists keep theirs to the end.
 */
const detached = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

/** The answer being built: counts are exact, lists keep their first LISTED_MAX entries. */
class Tally {
  processed = 0;
  readonly duplicates: UploadResult['duplicates'] = [];
  readonly errors: UploadResult['errors'] = [];
  duplicatesTotal = 0;
  errorsTotal = 0;

  error(row: number, errors: string[]) {
    this.errorsTotal++;
    if (this.errors.length < LISTED_MAX) this.errors.push({ row, errors: errors.map(detached) });
  }

  duplicate(row: number, trackingId: string) {
    this.duplicatesTotal++;
    if (this.duplicates.length < LISTED_MAX) this.duplicates.push({ row, tracking_id: detached(trackingId) });
  }

  result(): UploadResult {
    const skipped = this.duplicatesTotal + this.errorsTotal;
    const message =
      this.processed + skipped === 0
        ? 'Upload complete: the file has no data rows.'
        : `Upload complete: ${rows(this.processed)} stored, ${skipped} skipped.`;
    return {
      message,
      processed: this.processed,
      skipped,
      duplicates: this.duplicates,
      errors: this.errors,
      duplicates_total: this.duplicatesTotal,
      errors_total: this.errorsTotal,
    };
  }
}

/**
 * Valid rows waiting for their insert; a tracking ID seen earlier in the batch is a duplicate at once.
 * A batch's insert runs while the next batch is read: on PostgreSQL the database stores one batch
 * as this process parses and checks the next, instead of each waiting for the other. Inserts still
 * run one at a time, in file order, each after the lease was kept.
 */
class Batch {
  private records: ShipmentRecord[] = [];
  private rowNumbers: number[] = [];
  private trackingIds = new Set<string>();
  private repeats: { row: number; trackingId: string }[] = [];
  /** The insert of the batch before. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: RecordStore,
    private readonly tally: Tally,
    private readonly lease: Pick<Lease, 'keep'>,
  ) {}

  get full() {
    return this.records.length >= BATCH_ROWS;
  }

  add(row: number, record: ShipmentRecord) {
    if (this.trackingIds.has(record.tracking_id)) {
      this.repeats.push({ row, trackingId: record.tracking_id });
      return;
    }
    this.trackingIds.add(record.tracking_id);
    this.records.push(record);
    this.rowNumbers.push(row);
  }

  /** Starts the batch's insert once the one before it is done (throwing its failure). */
  async flush() {
    await this.writing;
    await this.lease.keep();
    this.writing = this.write(this.records, this.rowNumbers, this.repeats);
    // Handled here: a failure waits for the next flush() or done() to throw it.
    this.writing.catch(() => undefined);
    this.records = [];
    this.rowNumbers = [];
    this.trackingIds = new Set();
    this.repeats = [];
    await nextTurn();
  }

  /** The last insert started has ended (throwing its failure). */
  done(): Promise<void> {
    return this.writing;
  }

  /** Inserts the rows; a tracking ID already stored (by an earlier batch too) makes a duplicate. */
  private async write(records: ShipmentRecord[], rowNumbers: number[], duplicates: Batch['repeats']) {
    const stored = records.length === 0 ? [] : await this.store(records, rowNumbers);
    stored.forEach((isNew, i) => {
      if (isNew) this.tally.processed++;
      else duplicates.push({ row: rowNumbers[i]!, trackingId: records[i]!.tracking_id });
    });
    duplicates.sort((a, b) => a.row - b.row);
    for (const { row, trackingId } of duplicates) this.tally.duplicate(row, trackingId);
  }
}

async function hubCodes(db: Db): Promise<Map<string, string>> {
  const hubs = await db.kysely.selectFrom('groups').select('code').where('organization', '=', 'hub').execute();
  return new Map(
    hubs.flatMap(({ code }) => [
      [code.toLowerCase(), code],
      [code, code],
    ]),
  );
}

/**
 * Stores the valid rows of a complete upload and reports the others. A file that cannot be read
 * as a shipment CSV at all (empty, no usable header) is refused with a 400 before anything is
 * stored. Throws LeaseLost when another instance took the upload over, IngestStopped when the
 * server stops it.
 */
export async function ingestUpload(db: Db, lease: Pick<Lease, 'upload' | 'keep'>): Promise<UploadResult> {
  const { uploadId, totalChunks, createdAt, resumed } = lease.upload;
  const hubs = await hubCodes(db);
  const tally = new Tally();
  const batch = new Batch(recordStore(db, { uploadId, resumed }), tally, lease);
  const reader = new CsvRecordReader();
  let columns: ColumnPositions | undefined;
  let row = 0;

  async function take(records: Iterable<CsvRecord>) {
    for (const record of records) {
      if (columns === undefined) {
        if ('error' in record) throw new BadRequest('file', `The header row cannot be read: ${record.error}.`);
        const header = readHeader(record.fields);
        if ('problem' in header) throw new BadRequest('file', header.problem);
        columns = header.columns;
        continue;
      }
      row++;
      if ('error' in record) {
        tally.error(row, [record.error]);
        continue;
      }
      const checked = checkRow(record.fields, columns, hubs, createdAt);
      if ('errors' in checked) tally.error(row, checked.errors);
      else batch.add(row, checked.record);
      if (batch.full) await batch.flush();
    }
  }

  const decoder = new Utf8Text();
  let empty = true;
  try {
    for await (const data of chunkData(db, uploadId, totalChunks)) {
      await lease.keep();
      const text = decoder.decode(data);
      if (text) empty = false;
      await take(reader.push(text));
    }
    const rest = decoder.end();
    if (rest) empty = false;
    await take(reader.push(rest));
    await take(reader.end());

    if (empty) throw new BadRequest('file', 'The file is empty');
    if (columns === undefined) throw new BadRequest('file', 'The file has no header row: it holds only blank lines.');
    await batch.flush();
    await batch.done();
  } catch (error) {
    // The insert under way ends before the lease is given up or handed over (completeUpload).
    await batch.done().catch(() => undefined);
    throw error;
  }
  scheduleSearchIndexing(db);
  return tally.result();
}

/**
 * Runs a held upload's ingest to its end and keeps its result. On failure the lease is given up (a
 * resent chunk retries), on a stop handed over (another instance takes it at once); a lost lease
 * belongs to the instance that took it. `address` is the client's whose call completes it (null for
 * the sweeper's takeover).
 */
export async function completeUpload(db: Db, lease: Lease, address: string | null = null): Promise<UploadResult> {
  try {
    const result = await ingestUpload(db, lease);
    await finishUpload(db, lease, result, address);
    return result;
  } catch (error) {
    if (!(error instanceof LeaseLost)) {
      // Unable to write it (the database is gone), the lease runs out and a sweep takes the upload.
      await (error instanceof IngestStopped ? lease.handOver() : lease.giveUp()).catch(() => undefined);
    }
    throw error;
  }
}
