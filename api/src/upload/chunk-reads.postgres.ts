// PostgreSQL: an upload's chunk read by COPY, as the bytes stored (copy-rows.ts); in a transaction
// of its own, which is tried once more on a fresh connection should its connection fail (a
// database restart).
import { copyOneValue } from '../db/copy-rows';
import type { ChunkRead } from './repository';

export const postgresChunkRead: ChunkRead = (db, uploadId, index) =>
  db.clientTransaction!((client) =>
    copyOneValue(
      client,
      `select data from upload_chunks where upload_id = ${client.escapeLiteral(uploadId)} and chunk_index = ${index}`,
    ),
  );
