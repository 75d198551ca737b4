// A chart's card (chart-card.tsx): its tooltips read from the keyboard, point by point.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Chart } from 'chart.js';
import { useEffect } from 'react';
import { ChartCard, pointAfterKey, type CanvasProps, type ChartFigures } from './chart-card';

const THREE_DAYS: ChartFigures = {
  head: ['Day', 'Rejection at DoorStep', 'Rejections at Hub'],
  rows: [
    ['01 Nov', 1, 2],
    ['02 Nov', 3, 4],
    ['03 Nov', 5, 6],
  ],
};

/** What the card asks of chart.js, recorded: jsdom has no canvas to draw on. */
function fakeChart() {
  return {
    data: { datasets: [{}, {}] },
    getDatasetMeta: () => ({ data: [0, 1, 2].map((x) => ({ tooltipPosition: () => ({ x, y: 10 }) })) }),
    setActiveElements: jest.fn(),
    tooltip: { setActiveElements: jest.fn() },
    update: jest.fn(),
  };
}

function FakeCanvas({ ref, chart, ...props }: CanvasProps & { chart: ReturnType<typeof fakeChart> }) {
  useEffect(() => {
    ref?.(chart as unknown as Chart);
    return () => ref?.(null);
  }, [ref, chart]);
  return <canvas role="img" {...props} />;
}

function renderChart(figures: ChartFigures) {
  const chart = fakeChart();
  render(
    <>
      <ChartCard title="Rejection Trend" testId="chart" figures={figures}>
        {(canvas) => <FakeCanvas {...canvas} chart={chart} />}
      </ChartCard>
      <button type="button">After</button>
    </>,
  );
  /** The points shown active after the last key: the index of each dataset's, in order. */
  const shown = () => {
    const [elements, anchor] = chart.tooltip.setActiveElements.mock.lastCall ?? [];
    expect(chart.setActiveElements).toHaveBeenLastCalledWith(elements);
    expect(chart.update).toHaveBeenCalledTimes(chart.setActiveElements.mock.calls.length);
    return { points: (elements as { datasetIndex: number; index: number }[]).map((e) => e.index), anchor };
  };
  return { chart, shown };
}

describe("a chart's figures from the keyboard (WCAG 2.1.1)", () => {
  test('the canvas takes focus; the arrows, Home and End show each day in turn, every series at once', async () => {
    const user = userEvent.setup();
    const { chart, shown } = renderChart(THREE_DAYS);

    await user.tab();
    expect(screen.getByRole('img', { name: 'Rejection Trend' })).toHaveFocus();
    expect(chart.setActiveElements).not.toHaveBeenCalled();

    await user.keyboard('{ArrowRight}');
    expect(shown()).toEqual({ points: [0, 0], anchor: { x: 0, y: 10 } });
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(shown()).toEqual({ points: [2, 2], anchor: { x: 2, y: 10 } });
    await user.keyboard('{Home}');
    expect(shown().points).toEqual([0, 0]);
    await user.keyboard('{End}{ArrowLeft}');
    expect(shown().points).toEqual([1, 1]);
  });

  test('Escape hides the tooltip, and so does leaving the chart', async () => {
    const user = userEvent.setup();
    const { shown } = renderChart(THREE_DAYS);
    await user.tab();
    await user.keyboard('{ArrowDown}{Escape}');
    expect(shown().points).toEqual([]);

    await user.keyboard('{ArrowUp}');
    expect(shown().points).toEqual([2, 2]);
    await user.tab();
    expect(screen.getByRole('button', { name: 'After' })).toHaveFocus();
    expect(shown().points).toEqual([]);
  });

  test('a chart with no figures to read (the pie\'s "No Inputs") takes no focus', async () => {
    const user = userEvent.setup();
    renderChart({ head: ['Result', 'Count'], rows: [], empty: 'No Inputs' });
    await user.tab();
    expect(screen.getByRole('button', { name: 'After' })).toHaveFocus();
  });

  test.each([
    ['ArrowRight', null, 0],
    ['ArrowDown', 1, 2],
    ['ArrowRight', 2, 2],
    ['ArrowLeft', null, 2],
    ['ArrowUp', 0, 0],
    ['Home', 2, 0],
    ['End', 0, 2],
    ['Enter', 1, undefined],
  ])('%s from point %s of three moves to %s', (key, from, to) => {
    expect(pointAfterKey(key, from, 3)).toBe(to);
  });
});
