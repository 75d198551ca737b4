// Summary changes on PostgreSQL (summary-tables.ts): one statement, each table's rows one JSON
// parameter (json_to_recordset), so a write costs one round trip for every summary however many
// rows it touches.
import { CompiledQuery } from 'kysely';
import type { SummaryTable, SummaryWriter } from './summary-tables';

const TEXTS = new Map<string, string>();

/** One statement inserting into each table, in order, from its JSON parameter ($1, $2 …). */
function statementText(tables: readonly SummaryTable[]): string {
  const signature = tables.map((table) => table.name).join(' ');
  let text = TEXTS.get(signature);
  if (!text) {
    const inserts = tables.map(({ name, columns, onConflict }, i) => {
      const names = columns.map(([column]) => column).join(', ');
      const types = columns.map(([column, type]) => `${column} ${type}`).join(', ');
      return `t${i} as (insert into ${name} (${names}) select ${names} from json_to_recordset($${i + 1}::json) as r(${types}) ${onConflict})`;
    });
    TEXTS.set(signature, (text = `with ${inserts.join(', ')} select 1`));
  }
  return text;
}

// Raw: Kysely cannot say json_to_recordset's column list, nor one insert per table in one statement.
export const writePostgres: SummaryWriter = async (trx, _db, tables) => {
  await trx.executeQuery(
    CompiledQuery.raw(
      statementText(tables.map(([table]) => table)),
      tables.map(([, rows]) => JSON.stringify(rows)),
    ),
  );
};
