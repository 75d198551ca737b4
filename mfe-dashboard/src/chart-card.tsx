// The card a dashboard chart sits in: its title, its canvas, and the figures it draws as a
// visually hidden table.
import type { Chart } from 'chart.js';
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
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

/** The point (day or slice) a key moves to from `current` among `count`; undefined for other keys. */
export function pointAfterKey(key: string, current: number | null, count: number): number | undefined {
  const last = count - 1;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return current === null ? 0 : Math.min(current + 1, last);
    case 'ArrowLeft':
    case 'ArrowUp':
      return current === null ? last : Math.max(current - 1, 0);
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return undefined;
  }
}

/** Shows the tooltip of point `index` of every dataset, as hovering it does; none when null. */
function showPoint(chart: Chart, index: number | null): void {
  const elements = index === null ? [] : chart.data.datasets.map((_, datasetIndex) => ({ datasetIndex, index }));
  const anchor = index === null ? undefined : chart.getDatasetMeta(0).data[index]?.tooltipPosition(true);
  chart.setActiveElements(elements);
  chart.tooltip?.setActiveElements(elements, anchor ?? { x: 0, y: 0 });
  chart.update();
}

/** The props a chart's canvas takes: named by the card's title, and read point by point from the keyboard. */
export interface CanvasProps {
  'aria-labelledby': string;
  ref?: (chart: Chart | null | undefined) => void;
  tabIndex?: number;
  onKeyDown?: (event: KeyboardEvent) => void;
  onBlur?: () => void;
}

/**
 * The figures a mouse reads from a chart's tooltips, from the keyboard (WCAG 2.1.1): the canvas
 * takes focus, the arrow keys (Home, End) move from point to point showing each one's tooltip, and
 * Escape or leaving it hides it. chart.js has no keyboard of its own; hovering is its only way in.
 */
function useKeyboardPoints(count: number): Omit<CanvasProps, 'aria-labelledby'> {
  const chart = useRef<Chart | null>(null);
  const current = useRef<number | null>(null);
  const show = (index: number | null) => {
    current.current = index;
    if (chart.current) showPoint(chart.current, index);
  };
  return {
    ref: (instance) => {
      chart.current = instance ?? null;
    },
    tabIndex: 0,
    onKeyDown: (event) => {
      if (event.key === 'Escape') {
        if (current.current !== null) show(null);
        return;
      }
      const next = pointAfterKey(event.key, current.current, count);
      if (next === undefined) return;
      event.preventDefault(); // the arrows and Home/End would scroll the page
      show(next);
    },
    onBlur: () => {
      if (current.current !== null) show(null);
    },
  };
}

/**
 * A chart under its visible title. The canvas (role img) is named by the title; a drawn chart's
 * figures follow as a hidden table, and its tooltips are read from the keyboard as well.
 * `children` gets the props for the canvas.
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
  children: (canvasProps: CanvasProps) => ReactNode;
}) {
  const titleId = useId();
  const points = figures?.rows.length ?? 0;
  const keyboard = useKeyboardPoints(points);
  return (
    <figure className="vx-card db-chart">
      <figcaption id={titleId} className="vx-card-title">
        {title}
      </figcaption>
      <div className="db-chart__canvas" data-testid={testId}>
        {/* Only a chart with figures has tooltips to read (not the 'No Inputs' placeholder). */}
        {children(points > 0 ? { 'aria-labelledby': titleId, ...keyboard } : { 'aria-labelledby': titleId })}
      </div>
      {figures && <FiguresTable title={title} figures={figures} />}
    </figure>
  );
}

/** What a chart shows in place of its canvas when there is nothing to draw. */
export const noData = <p className="db-empty">No data available</p>;
