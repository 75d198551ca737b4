// SQLite's JSON of a record (record-json.ts): json_object, its text as it is.
import { sql } from 'kysely';
import type { JsonFunctions } from './record-json';

export const sqliteJson: JsonFunctions = {
  object: (entries) => sql`json_object(${sql.join(entries.flatMap(([key, value]) => [sql.lit(key), value]))})`,
  flag: (column) => sql`json(iif(${sql.ref(column)}, 'true', 'false'))`,
  text: (json) => sql<string>`${json}`,
};
