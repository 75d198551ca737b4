// The three charts of the dashboard (docs/dashboard.md#rejection-trend and the two sections after it),
// drawn by chart.js from figures the stats module
// already shaped. Only the chart.js parts used here are registered, so the rest is tree-shaken.
import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PieController,
  PointElement,
  Tooltip,
  type ChartOptions,
} from 'chart.js';
import { useMemo } from 'react';
import { Bar, Line, Pie } from 'react-chartjs-2';
import { NO_INPUTS_SLICE, type DailySeries, type ErrorSlice } from '@veritas/shared/domain';
import { ChartCard, noData, type ChartFigures } from './chart-card';

ChartJS.register(
  LineController,
  LineElement,
  PointElement,
  BarController,
  BarElement,
  PieController,
  ArcElement,
  CategoryScale,
  LinearScale,
  Tooltip,
  Legend,
);

const DOORSTEP_COLOR = '#1a73e8';
const HUB_COLOR = '#1e8e3e';

/** docs/dashboard.md#error-distribution: the pie's outer radius. */
export const PIE_RADIUS = 80;

/**
 * The pie's radius as chart.js asks for it once the chart's area is laid out: PIE_RADIUS, or less
 * where the card leaves less room beside the legend (a 320 px screen), so that no part is cut off.
 */
export function pieRadius({ chart }: { chart: { chartArea?: { width: number; height: number } } }): number {
  const area = chart.chartArea;
  return area ? Math.min(PIE_RADIUS, Math.min(area.width, area.height) / 2) : PIE_RADIUS;
}

// Static charts: no animation, so a chart is complete as soon as it is committed.
const dailyOptions = {
  animation: false,
  responsive: true,
  maintainAspectRatio: false,
  plugins: { legend: { position: 'bottom' } },
  scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
} as const;

/** The figures of a daily chart, read from the very data handed to chart.js: a row per day, a column per series. */
function dailyFigures({
  labels,
  datasets,
}: {
  labels: string[];
  datasets: { label: string; data: number[] }[];
}): ChartFigures {
  return {
    head: ['Day', ...datasets.map((d) => d.label)],
    rows: labels.map((day, i) => [day, ...datasets.map((d) => d.data[i]!)]),
  };
}

export function RejectionTrendChart({ days, trend }: { days: string[]; trend: DailySeries }) {
  const data = useMemo(
    () => ({
      labels: days,
      datasets: [
        {
          label: 'Rejection at DoorStep',
          data: trend.doorstep,
          borderColor: DOORSTEP_COLOR,
          backgroundColor: DOORSTEP_COLOR,
        },
        { label: 'Rejections at Hub', data: trend.hub, borderColor: HUB_COLOR, backgroundColor: HUB_COLOR },
      ],
    }),
    [days, trend],
  );
  return (
    <ChartCard title="Rejection Trend" testId="chart-rejection-trend" figures={trend.total ? dailyFigures(data) : null}>
      {(canvas) => (trend.total ? <Line data={data} options={dailyOptions} {...canvas} /> : noData)}
    </ChartCard>
  );
}

export function DailyVolumeChart({ days, volume }: { days: string[]; volume: DailySeries }) {
  const data = useMemo(
    () => ({
      labels: days,
      datasets: [
        { label: 'Verified at Doorstep', data: volume.doorstep, backgroundColor: DOORSTEP_COLOR },
        { label: 'Verified at Hub', data: volume.hub, backgroundColor: HUB_COLOR },
      ],
    }),
    [days, volume],
  );
  return (
    <ChartCard
      title="Daily Processed Volume"
      testId="chart-daily-volume"
      figures={volume.total ? dailyFigures(data) : null}
    >
      {(canvas) => (volume.total ? <Bar data={data} options={dailyOptions} {...canvas} /> : noData)}
    </ChartCard>
  );
}

export function ErrorDistributionChart({ errors }: { errors: ErrorSlice[] }) {
  const hasInputs = errors.length > 0;
  const slices = useMemo(() => (hasInputs ? errors : [NO_INPUTS_SLICE]), [errors, hasInputs]);
  const data = useMemo(
    () => ({
      labels: slices.map((s) => s.label),
      datasets: [
        {
          data: slices.map((s) => s.count),
          backgroundColor: slices.map((s) => s.color),
          radius: pieRadius,
          // Slice borders separate slices; a lone slice would show its border as a stray radius line.
          borderWidth: slices.length > 1 ? 2 : 0,
        },
      ],
    }),
    [slices],
  );
  const options = useMemo<ChartOptions<'pie'>>(
    () => ({
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: {
        legend: { position: 'right' },
        // docs/dashboard.md#error-distribution: 'Passed' or 'E00x: title', then the count; the 'No Inputs' placeholder has no figure to show.
        tooltip: {
          enabled: hasInputs,
          callbacks: {
            title: ([item]) => (item ? slices[item.dataIndex]!.tooltip : ''),
            label: (item) => ` ${item.formattedValue}`,
          },
        },
      },
    }),
    [slices, hasInputs],
  );
  // The figures of the slices drawn, named as their tooltips name them; the 'No Inputs' placeholder has none.
  const figures: ChartFigures = {
    head: ['Result', 'Count'],
    rows: hasInputs ? slices.map((s) => [s.tooltip, s.count]) : [],
    empty: NO_INPUTS_SLICE.label,
  };
  return (
    <ChartCard title="Error Distribution" testId="chart-error-distribution" figures={figures}>
      {(canvas) => <Pie data={data} options={options} {...canvas} />}
    </ChartCard>
  );
}
