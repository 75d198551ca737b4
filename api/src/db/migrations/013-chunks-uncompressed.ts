// Upload chunks kept uncompressed on PostgreSQL (storage EXTERNAL instead of EXTENDED). Processing
// read each chunk in slices then: from a compressed value every slice decompressed the chunk up to
// its end, about eleven times each chunk's bytes; uncompressed, a slice reads only its own TOAST
// pieces. It now reads each chunk whole (src/upload/repository.ts), and uncompressed still spares
// compressing it when stored and decompressing it when read. A chunk lives until its upload ends
// (24 h at most), so the space saved mattered little. Chunks stored before keep their form.
// SQLite stores blobs as they come: nothing to change there.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema';

export function chunksUncompressed(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      if (engine === 'postgres')
        await sql`alter table upload_chunks alter column data set storage external`.execute(db);
    },
  };
}
