// The photos' queries (photos.ts): case_photos is theirs alone.
import type { Kysely } from 'kysely';
import { lockingRows } from '../db/engines';
import type { Database, Db } from '../db/schema';

export async function countCasePhotos(kysely: Kysely<Database>, caseId: number): Promise<number> {
  const row = await kysely
    .selectFrom('case_photos')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('case_id', '=', caseId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Holds the case's row until the transaction ends (PostgreSQL; SQLite has one writer at a time). */
export async function lockCase(trx: Kysely<Database>, db: Db, caseId: number): Promise<void> {
  await lockingRows(db, trx.selectFrom('cases').select('id').where('id', '=', caseId)).execute();
}

export async function insertCasePhoto(
  kysely: Kysely<Database>,
  values: {
    case_id: number;
    content_type: string;
    bytes: Buffer;
    size: number;
    added_by_id: number;
    added_at: string;
  },
): Promise<number> {
  const row = await kysely.insertInto('case_photos').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Who submitted the device of a tracking ID at the doorstep, if anyone. */
export async function submitterOf(kysely: Kysely<Database>, trackingId: string): Promise<number | null> {
  const row = await kysely
    .selectFrom('device_records')
    .select('submitted_by_id')
    .where('tracking_id', '=', trackingId)
    .executeTakeFirst();
  return row?.submitted_by_id ?? null;
}

export async function findPhotoCase(kysely: Kysely<Database>, photoId: number) {
  return kysely
    .selectFrom('case_photos as p')
    .innerJoin('cases as c', 'c.id', 'p.case_id')
    .select(['p.content_type', 'c.queue'])
    .where('p.id', '=', photoId)
    .executeTakeFirst();
}

export async function findPhotoBytes(kysely: Kysely<Database>, photoId: number): Promise<Buffer | undefined> {
  const row = await kysely.selectFrom('case_photos').select('bytes').where('id', '=', photoId).executeTakeFirst();
  return row?.bytes;
}
