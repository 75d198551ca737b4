// Writing back derived columns on PostgreSQL (derived-columns.ts backfillDerivedColumns).
import { sql } from 'kysely';
import type { DerivedWriter } from './derived-columns';

// Raw: Kysely cannot say json_to_recordset's column definition list.
export const writeDerivedPostgres: DerivedWriter = async (db, columns, values) => {
  const types = sql.join([sql`id integer`, ...columns.map(([c, type]) => sql`${sql.ref(c)} ${sql.raw(type)}`)]);
  await sql`
    update device_records d set ${sql.join(columns.map(([c]) => sql`${sql.ref(c)} = v.${sql.ref(c)}`))}
    from json_to_recordset(${values}::json) as v(${types})
    where d.id = v.id`.execute(db);
};
