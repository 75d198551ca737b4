// SQLite's change stamps (change-order.ts). Its defaults are constants: the upload's insert names
// these (store-records.sqlite.ts).
import type { ChangeStampSql } from './change-order';

export const sqliteChangeStamps: ChangeStampSql = {
  // One writer at a time: one past the last, along the feed's index. Commit order by construction.
  change_order: '(select coalesce(max(change_order), 0) + 1 from device_records)',
  changed_ms: "(cast(unixepoch('subsec') * 1000 as integer))",
};
