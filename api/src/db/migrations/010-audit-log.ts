// The audit trail (src/audit/, docs/audit.md): one row per security-relevant action, written in the
// action's own transaction. `seq` is 1, 2, 3… in commit order without gaps, and each row's `hash`
// covers its content and the previous row's hash, so a changed, removed or inserted row breaks the
// chain. The table is append-only: a trigger refuses UPDATE, and DELETE unless the one maintenance
// path (src/audit/retention.ts) says so for its transaction.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema';

/** The triggers that keep the table append-only; the retention path drops and restores them on SQLite. */
export const SQLITE_AUDIT_TRIGGERS = [
  `create trigger audit_log_no_update before update on audit_log
     begin select raise(abort, 'audit_log is append-only'); end`,
  `create trigger audit_log_no_delete before delete on audit_log
     begin select raise(abort, 'audit_log is append-only'); end`,
];

export function auditLog(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('audit_log')
        .addColumn('seq', 'bigint', (c) => c.primaryKey())
        .addColumn('created_ms', 'bigint', (c) => c.notNull())
        .addColumn('actor_kind', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('actor_role', 'text')
        .addColumn('address', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_kind', 'text')
        .addColumn('target_id', 'text')
        .addColumn('target_label', 'text')
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('details', 'text')
        .addColumn('prev_hash', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .execute();
      // The screen's filters, each with seq so a page newest-first is one index range: the time
      // range is turned into a seq range first (created_ms never decreases along seq).
      await db.schema.createIndex('audit_log_created').on('audit_log').columns(['created_ms', 'seq']).execute();
      for (const column of ['actor_name', 'action', 'target_label', 'target_kind', 'outcome']) {
        await db.schema.createIndex(`audit_log_${column}`).on('audit_log').columns([column, 'seq']).execute();
      }

      if (engine === 'sqlite') {
        for (const trigger of SQLITE_AUDIT_TRIGGERS) await sql.raw(trigger).execute(db);
        return;
      }
      // The maintenance path sets veritas.audit_retention to 'prune' for its own transaction
      // (SET LOCAL); nothing else may delete, nobody may update or truncate.
      await sql`
        create function audit_log_append_only() returns trigger language plpgsql as $$
        begin
          if tg_op = 'DELETE' and current_setting('veritas.audit_retention', true) = 'prune' then
            return old;
          end if;
          raise exception 'audit_log is append-only' using errcode = '55000';
        end $$`.execute(db);
      await sql`
        create trigger audit_log_append_only before update or delete on audit_log
        for each row execute function audit_log_append_only()`.execute(db);
      await sql`
        create trigger audit_log_no_truncate before truncate on audit_log
        for each statement execute function audit_log_append_only()`.execute(db);
    },
  };
}
