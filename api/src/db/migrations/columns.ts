// Column helpers shared by the migrations: the few DDL details where the engines differ.
import type { ColumnDefinitionBuilderCallback, CreateTableBuilder } from 'kysely';
import type { Engine } from '../schema';

/** An auto-increment integer primary key named id. */
export function addIdColumn<T extends string>(table: CreateTableBuilder<T, never>, engine: Engine) {
  return engine === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** A column of raw bytes (read back as a Buffer by both drivers). */
export function addBytesColumn<T extends string, C extends string, N extends string>(
  table: CreateTableBuilder<T, C>,
  name: N,
  engine: Engine,
  build?: ColumnDefinitionBuilderCallback,
) {
  return table.addColumn(name, engine === 'postgres' ? 'bytea' : 'blob', build);
}
