// The card a dashboard chart sits in: its title, its canvas, and the figures it draws as a
// visually hidden table.
import { useId, type ReactNode } from 'react';
import { DataTable, type Column } from '@veritas/shared/table';

/** A day or a slice: its name, then its values. */
type FigureRow = (string | number)[];

/** A chart's figures as a table: the text alternative of its canvas (WCAG 1.1.1). */
export interface ChartFigures {
  /** Column headers: what a row is, then one per value. */
  head: string[];
  /** One row per day or slice. */
  rows: FigureRow[];
  /** Shown in place of rows when there are none. */
  empty?: string;
}

/** Visually hidden: screen readers get the numbers the chart draws, not just its name. */
function FiguresTable({ title, figures }: { title: string; figures: ChartFigures }) {
  const columns: Column<FigureRow>[] = figures.head.map((header, index) => ({
    header,
    cell: (row) => row[index],
    rowHeader: index === 0,
  }));
  return (
    <div className="vx-sr-only">
      <DataTable
        caption={title}
        wrapClassName={false}
        columns={columns}
        rows={figures.rows}
        rowKey={(row) => row[0]!}
        empty={figures.empty}
      />
    </div>
  );
}

/**
 * A chart under its visible title. The canvas (role img) is named by the title; a drawn chart's
 * figures follow as a hidden table. `children` gets the props that name the canvas.
 */
export function ChartCard({
  title,
  testId,
  figures,
  children,
}: {
  title: string;
  testId: string;
  /** Left out when the chart shows 'No data available' instead of a canvas. */
  figures: ChartFigures | null;
  children: (canvasName: { 'aria-labelledby': string }) => ReactNode;
}) {
  const titleId = useId();
  return (
    <figure className="vx-card db-chart">
      <figcaption id={titleId} className="vx-card-title">
        {title}
      </figcaption>
      <div className="db-chart__canvas" data-testid={testId}>
        {children({ 'aria-labelledby': titleId })}
      </div>
      {figures && <FiguresTable title={title} figures={figures} />}
    </figure>
  );
}

/** What a chart shows in place of its canvas when there is nothing to draw. */
export const noData = <p className="db-empty">No data available</p>;
