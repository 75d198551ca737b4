// The console's one table (docs/screens.md#tables): a caption that names it, column headers, and
// in place of rows a loading, error or empty row spanning every column. Row headers are `th
// scope="row"`, so a screen reader announces a cell with its row and its column; the box around
// it becomes a named, focusable region when it scrolls (ScrollRegion), so the keyboard can
// scroll it too. The region is named '<caption> table': a section headed by the caption's words
// (API keys, Deploy tokens) is a region too, and two landmarks of one name cannot be told apart.
import { Fragment, type Key, type ReactNode } from 'react';
import { ScrollRegion } from './scroll-region';

export interface Column<Row> {
  header: ReactNode;
  cell(row: Row): ReactNode;
  /** The cell names its row (`th scope="row"`), e.g. a version, an origin, a day. */
  rowHeader?: boolean;
  className?: string;
}

/** Attributes of a row's `tr`: a class, and `data-*` for tests and styles. */
export type RowAttributes = { className?: string } & { [data: `data-${string}`]: string | number | undefined };

export interface DataTableProps<Row> {
  /** Names the table (and, followed by 'table', its scrolling region); `captionClassName` may hide it visually. */
  caption: string;
  captionClassName?: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey(row: Row): Key;
  rowAttributes?(row: Row): RowAttributes;
  /** Rendered after a row, e.g. its details row. */
  after?(row: Row): ReactNode;
  /** While set, this row stands for the rows, and the table is marked busy. */
  loading?: ReactNode;
  /** A failure to load: shown instead of the rows, announced (role alert). */
  error?: ReactNode;
  /** Shown when there are no rows. */
  empty: ReactNode;
  /** Marks the table busy while rows are on their way (a next page, new filters). */
  busy?: boolean;
  className?: string;
  /** The class of the notice rows' cell. */
  noteClassName?: string;
  /** The scrolling box's class; `false`: no box (a table hidden from sight never scrolls). */
  wrapClassName?: string | false;
}

export function DataTable<Row>({
  caption,
  captionClassName,
  columns,
  rows,
  rowKey,
  rowAttributes,
  after,
  loading,
  error,
  empty,
  busy,
  className = 'vx-table',
  noteClassName = 'vx-muted',
  wrapClassName = 'vx-table-wrap',
}: DataTableProps<Row>) {
  const note = (content: ReactNode, alert = false) => (
    <tr>
      <td colSpan={columns.length} className={noteClassName}>
        {alert ? <span role="alert">{content}</span> : content}
      </td>
    </tr>
  );
  const body = loading
    ? note(loading)
    : error
      ? note(error, true)
      : rows.length === 0
        ? note(empty)
        : rows.map((row) => (
            <Fragment key={rowKey(row)}>
              <tr {...rowAttributes?.(row)}>
                {columns.map((column, index) =>
                  column.rowHeader ? (
                    <th key={index} scope="row" className={column.className}>
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={index} className={column.className}>
                      {column.cell(row)}
                    </td>
                  ),
                )}
              </tr>
              {after?.(row)}
            </Fragment>
          ));

  const table = (
    <table className={className} aria-busy={Boolean(loading) || busy || undefined}>
      <caption className={captionClassName}>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column, index) => (
            <th key={index} scope="col">
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{body}</tbody>
    </table>
  );
  if (wrapClassName === false) return table;
  return (
    <ScrollRegion label={`${caption} table`} className={wrapClassName}>
      {table}
    </ScrollRegion>
  );
}
