// PostgreSQL's JSON of a record (record-json.ts): row values whose column names are the keys,
// rendered by row_to_json (markedly faster than json_build_object over nested row values).
import { sql } from 'kysely';
import type { JsonFunctions } from './record-json';

export const postgresJson: JsonFunctions = {
  object: (entries) =>
    sql`(select j from (select ${sql.join(entries.map(([key, value]) => sql`${value} as ${sql.id(key)}`))}) j)`,
  flag: (column) => sql`(${sql.ref(column)} = 1)`,
  // ::text keeps the pg driver from parsing the JSON back into objects.
  text: (json) => sql<string>`row_to_json(${json})::text`,
};
