// Writing back derived columns on SQLite (derived-columns.ts backfillDerivedColumns).
import { sql } from 'kysely';
import type { DerivedWriter } from './derived-columns';

// Raw: Kysely cannot say an UPDATE … FROM json_each.
export const writeDerivedSqlite: DerivedWriter = async (db, columns, values) => {
  await sql`
    update device_records set ${sql.join(columns.map(([c]) => sql`${sql.ref(c)} = v.value ->> ${sql.lit(c)}`))}
    from json_each(${values}) as v
    where device_records.id = v.value ->> 'id'`.execute(db);
};
