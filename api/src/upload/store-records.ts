// Inserting a batch of valid upload rows into device_records, telling which were new: a tracking
// ID already stored is left as it is (ON CONFLICT DO NOTHING). The other columns keep their
// defaults (nothing submitted or verified yet) but the derived ones (src/writes/derived-columns.ts),
// written with each row. In the same transaction the rows stored are added to the summaries
// (RecordChanges). (The tracking-ID search table takes them after the upload: search-index.ts,
// whose lock each PostgreSQL batch holds; their one- and two-character pieces are added before
// them: id-grams.ts.)
//
// Each record stored carries its upload and row (upload_id, upload_row), so that an upload run
// again after a run that did not finish (an instance died: lease.ts) tells the rows that run
// stored, which count as stored, from true duplicates: a tracking ID already stored with this
// upload's id and this very row. Only such a resumed run reads them back (one select of the batch's
// conflicting tracking IDs); a first run does not.
import { forEngine } from '../db/engines';
import type { Db } from '../db/schema';
import { recordIdGrams } from '../devices/id-grams';
import { postgresStore } from './store-records.postgres';
import { sqliteStore } from './store-records.sqlite';
import type { RecordStore, StoreTarget } from './stored-rows';

export function recordStore(db: Db, target: StoreTarget): RecordStore {
  const store = forEngine(db, { postgres: postgresStore, sqlite: sqliteStore })(db, target);
  return async (records, uploadRows) => {
    // Before the records: the table of pieces must hold those of every stored record (id-grams.ts).
    await recordIdGrams(
      db,
      records.map((record) => record.tracking_id),
    );
    return store(records, uploadRows);
  };
}
