// Device records as the API answers them (SPEC.md §3), read page by page.
import type { Db } from './db/schema';

const userRef = (username: string | null) => (username === null ? null : { username });

function selectPage(db: Db, afterId: number, pageSize: number) {
  return db.kysely
    .selectFrom('device_records as d')
    .leftJoin('users as sb', 'sb.id', 'd.submitted_by_id')
    .leftJoin('users as vb', 'vb.id', 'd.verified_by_id')
    .leftJoin('users as rb', 'rb.id', 'd.verified_by_rc_id')
    .selectAll('d')
    .select(['sb.username as submitted_by', 'vb.username as verified_by', 'rb.username as verified_by_rc'])
    .where('d.id', '>', afterId)
    .orderBy('d.id')
    .limit(pageSize)
    .execute();
}

type Row = Awaited<ReturnType<typeof selectPage>>[number];

export function toApiRecord(row: Row) {
  return {
    id: row.id,
    tracking_id: {
      tracking_id: row.tracking_id,
      hub_code: row.hub_code,
      created_date: row.created_date,
      device_type: row.device_type,
      is_Blindpick: row.is_blindpick === 1,
      Blind_brand: row.blind_brand,
      Blind_model: row.blind_model,
      device_model_name: row.device_model_name,
      device_brand: row.device_brand,
    },
    is_submit: row.is_submit === 1,
    submit_time: row.submit_time,
    submitted_by: userRef(row.submitted_by),
    submitted_device_name: row.submitted_device_name,
    submitted_manufacturer: row.submitted_manufacturer,
    is_verified: row.is_verified === 1,
    verify_time: row.verify_time,
    verified_by: userRef(row.verified_by),
    is_verified_rc: row.is_verified_rc === 1,
    verified_by_rc: userRef(row.verified_by_rc),
    verify_time_rc: row.verify_time_rc,
    is_verified_rc_by: row.is_verified_rc_by === 1,
    device_result: row.device_result,
  };
}

/** Every record, in id order, one page at a time (keyset paging: each page is an index seek). */
export async function* recordPages(db: Db, pageSize: number): AsyncGenerator<Row[]> {
  let afterId = 0;
  for (;;) {
    const page = await selectPage(db, afterId, pageSize);
    if (page.length === 0) return;
    yield page;
    if (page.length < pageSize) return;
    afterId = page[page.length - 1]!.id;
  }
}
