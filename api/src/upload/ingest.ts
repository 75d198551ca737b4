// A complete upload's chunks into device records: read one chunk at a time, decoded and parsed
// as streams (a character or a row may span chunks), stored in batches, under the upload's lease
// (lease.ts), renewed between batches. A run taken over from an instance that died reads the file
// again from its first row, in the same order: the rows that instance stored count as stored
// (store-records.ts), so the counts, the errors and the duplicates listed are those of one clean run.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { UploadResult } from '@veritas/shared/domain';
import { forEngine } from '../db/engines';
import type { Db, Engine } from '../db/schema';
import { BadRequest, answerOf } from '../http-errors';
import { CsvRecordReader, type CsvRecord } from './csv-records';
import { checkRow, readHeader, type ColumnPositions, type ShipmentRecord } from './shipment-rows';
import { IngestStopped, LeaseLost, type Lease } from './lease';
import { chunkData, failUpload, finishUpload } from './repository';
import { recordStore } from './store-records';
import type { RecordStore } from './stored-rows';
import { pauseSearchIndexing, scheduleSearchIndexing } from '../devices/search-index';
import { Utf8Text } from './utf8-text';

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
 * How each engine's batches are paced: rows per insert (each batch one transaction) and inserts
 * under way at once. better-sqlite3 is synchronous, so each batch blocks the event loop: small
 * batches, with a turn of the loop between them, keep other requests served during a long ingest;
 * SQLite has one writer, on this thread, so one at a time. On PostgreSQL a backend copying a
 * batch into device_records and its indexes is what bounds an upload: three at once keep two cores
 * busy (with two, each backend spent about two fifths of its transactions' time waiting for this
 * thread between its statements), of 2,000 rows each: a batch's statements and summary rows cost
 * about as much for fewer rows, so larger batches spend less per row on them (api/README.md#upload).
 * They cannot deadlock: they hold no tracking ID in common (Batch), lock the summary rows in one
 * order (summary-tables.ts) and take the events' lock last (events/write.ts).
 */
export const PACE: Readonly<Record<Engine, { rows: number; atOnce: number }>> = {
  sqlite: { rows: 1000, atOnce: 1 },
  postgres: { rows: 2000, atOnce: 3 },
};

/**
 * Rows read and checked between two turns of the event loop. On PostgreSQL the batches being
 * written wait for this thread between their statements: reading a whole batch in one go left
 * their backends idle meanwhile (api/README.md#upload).
 */
const ROWS_PER_TURN = 50;

/** A batch whose insert was started: its tracking IDs, its insert, then its rows counted. */
interface Write {
  trackingIds: ReadonlySet<string>;
  inserted: Promise<unknown>;
  counted: Promise<void>;
}

/**
 * Valid rows waiting for their insert. A tracking ID seen earlier in the file is a duplicate
 * whatever happens to its first row (stored now, or stored before), so one seen in this batch or
 * in a batch whose insert is under way is counted a duplicate at once, and inserts under way at
 * once never hold the same tracking ID. Each batch's insert starts after the lease was kept, while
 * the next batch is read (the database stores one batch as this process parses and checks the
 * next); the rows are counted in file order, whichever insert ends first.
 */
class Batch {
  private records: ShipmentRecord[] = [];
  private rowNumbers: number[] = [];
  private trackingIds = new Set<string>();
  private repeats: { row: number; trackingId: string }[] = [];
  /** Started and not yet waited for, oldest first. */
  private writes: Write[] = [];

  constructor(
    private readonly store: RecordStore,
    private readonly tally: Tally,
    private readonly lease: Pick<Lease, 'keep'>,
    private readonly pace: (typeof PACE)[Engine],
  ) {}

  get full() {
    return this.records.length >= this.pace.rows;
  }

  add(row: number, record: ShipmentRecord) {
    const id = record.tracking_id;
    if (this.trackingIds.has(id) || this.writes.some((write) => write.trackingIds.has(id))) {
      this.repeats.push({ row, trackingId: id });
      return;
    }
    this.trackingIds.add(id);
    this.records.push(record);
    this.rowNumbers.push(row);
  }

  /** Starts the batch's insert once fewer than `pace.atOnce` are under way (throwing the failure of one). */
  async flush() {
    while (this.writes.length >= this.pace.atOnce) await this.writes.shift()!.counted;
    await this.lease.keep();
    const { records, rowNumbers, repeats, trackingIds } = this;
    const inserted = records.length === 0 ? Promise.resolve([]) : this.store(records, rowNumbers);
    const before = this.writes.at(-1)?.counted ?? Promise.resolve();
    const counted = before.then(() => inserted).then((stored) => this.count(stored, records, rowNumbers, repeats));
    // Handled here: a failure waits for the next flush() or done() to throw it.
    inserted.catch(() => undefined);
    counted.catch(() => undefined);
    this.writes.push({ trackingIds, inserted, counted });
    this.records = [];
    this.rowNumbers = [];
    this.trackingIds = new Set();
    this.repeats = [];
    await nextTurn();
  }

  /** Every insert started has ended (throwing the first failure). */
  async done(): Promise<void> {
    const writes = this.writes;
    this.writes = [];
    await Promise.allSettled(writes.map((write) => write.inserted));
    for (const write of writes) await write.counted;
  }

  /** Counts a batch's rows: a tracking ID already stored (by an earlier batch too) makes a duplicate. */
  private count(stored: boolean[], records: ShipmentRecord[], rowNumbers: number[], duplicates: Batch['repeats']) {
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
  const batch = new Batch(recordStore(db, { uploadId, resumed }), tally, lease, forEngine(db, PACE));
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
      else if (row % ROWS_PER_TURN === 0) await nextTurn();
    }
  }

  const decoder = new Utf8Text();
  let empty = true;
  const resumeSearchIndexing = pauseSearchIndexing(db);
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
  } finally {
    resumeSearchIndexing();
  }
  scheduleSearchIndexing(db);
  return tally.result();
}

/**
 * Runs a held upload's ingest to its end and keeps its result. On failure the upload is marked
 * 'failed' with what its call answers (a resent final chunk runs it again), on a stop handed over
 * (another instance takes it at once); a lost lease belongs to the instance that took it. `address`
 * is the client's whose call completes it (null for the sweeper's takeover).
 */
export async function completeUpload(db: Db, lease: Lease, address: string | null = null): Promise<UploadResult> {
  try {
    const result = await ingestUpload(db, lease);
    await finishUpload(db, lease, result, address);
    return result;
  } catch (error) {
    if (error instanceof IngestStopped) await lease.handOver().catch(() => undefined);
    // Unable to write it (the database is gone), the lease runs out and a sweep takes the upload.
    else if (!(error instanceof LeaseLost))
      await failUpload(db, lease, answerOf(error), address).catch(() => undefined);
    throw error;
  }
}
