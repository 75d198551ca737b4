// SQLite: an upload's chunk read as a blob.
import type { ChunkRead } from './repository';

export const sqliteChunkRead: ChunkRead = async (db, uploadId, index) => {
  const row = await db.kysely
    .selectFrom('upload_chunks')
    .select('data')
    .where('upload_id', '=', uploadId)
    .where('chunk_index', '=', index)
    .executeTakeFirst();
  return row?.data ?? null;
};
