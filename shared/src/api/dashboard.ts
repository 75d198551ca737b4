// api/dashboard/ (feature dashboard-figures, docs/dashboard.md#server-side-figures): the figures
// dashboardStats() computes over api/get_status/'s records, for a hub, a timeframe and a time zone.
import { Type, type Static } from '@sinclair/typebox';
import { TIMEFRAMES, type Timeframe } from '../dashboard-stats';

const TIMEFRAME_VALUES = TIMEFRAMES.map((t) => t.value);
const timeframes = TIMEFRAME_VALUES.join(', ');

/** The query; nothing is trimmed, as the console compares the hub and the timeframe as written. */
export const DashboardQuery = Type.Object({
  hub: Type.String({ minLength: 1, errorMessages: { missing: "Choose a hub: 'all' or a hub code." } }),
  timeframe: Type.Unsafe<Timeframe>({
    type: 'string',
    enum: TIMEFRAME_VALUES,
    errorMessages: {
      missing: `Choose a timeframe: ${timeframes}.`,
      enum: `Unknown timeframe '{value}': use ${timeframes}.`,
    },
  }),
  tz: Type.String({
    minLength: 1,
    maxLength: 100,
    format: 'time-zone',
    description: "The viewer's IANA time zone: its days are the dashboard's.",
    errorMessages: {
      missing: "Give the viewer's time zone (an IANA name such as Asia/Kolkata).",
      maxLength: 'Unknown time zone: give an IANA name such as Asia/Kolkata.',
      format: "Unknown time zone '{value}': give an IANA name such as Asia/Kolkata.",
    },
  }),
});

/** Counts per day of the timeframe, oldest first, for a chart's two series. */
export const DailySeries = Type.Object({
  doorstep: Type.Array(Type.Integer()),
  hub: Type.Array(Type.Integer()),
  total: Type.Integer({ description: "Sum of both series: 0 means the chart shows 'No data available'." }),
});
export type DailySeries = Static<typeof DailySeries>;

export const RankRow = Type.Object({
  name: Type.String(),
  count: Type.Integer(),
  percent: Type.String({ description: "'12.34%'" }),
});
export type RankRow = Static<typeof RankRow>;

/** One slice of the Error Distribution pie. */
export const ErrorSlice = Type.Object({
  key: Type.String({ description: "'passed' or an error code." }),
  label: Type.String({ description: "Legend text: 'Passed' or the code." }),
  tooltip: Type.String({ description: "docs/dashboard.md#error-distribution: 'Passed', or 'E00x: title'." }),
  color: Type.String(),
  count: Type.Integer(),
});
export type ErrorSlice = Static<typeof ErrorSlice>;

export const DashboardStats = Type.Object({
  verified: Type.Integer({ description: 'Submitted records (Verified at Doorstep).' }),
  pending: Type.Integer({ description: 'Records not submitted.' }),
  rejection: Type.String({ description: "'12.34%': rejections among submitted / submitted." }),
  days: Type.Array(Type.String(), { description: "'MM/DD' per day of the timeframe, oldest first." }),
  // trend: Rejection Trend, doorstep rejections by submit day and hub rejections by verify day.
  // volume: Daily Processed Volume, submitted-only by submit day (doorstep) and verified by verify day (hub).
  trend: DailySeries,
  volume: DailySeries,
  errors: Type.Array(ErrorSlice, {
    description: 'Non-empty slices in the order passed, E003 … E010; empty when nothing counted.',
  }),
  topHubs: Type.Array(RankRow),
  topOperators: Type.Array(RankRow),
});
export type DashboardStats = Static<typeof DashboardStats>;
