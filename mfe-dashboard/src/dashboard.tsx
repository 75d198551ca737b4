// Dashboard (route Dashboard, docs/dashboard.md): tiles, charts and top-five tables of verification
// outcomes for one hub or all, over a timeframe. The selection lives in the URL query
// (?hub=…&timeframe=…), so a view can be linked and reloaded. Other remotes add tiles after its
// own (slot `dashboard.tile`, declared in remote.json). Default export: the shell's page.
import { ALL_HUBS, dashboardStartHub, SearchSelect, Slot, useSearchParams, useSession } from '@veritas/shared';
import { DEFAULT_TIMEFRAME, isTimeframe, TIMEFRAMES, type RankRow, type Selection } from '@veritas/shared/domain';
import { DataTable, type Column } from '@veritas/shared/table';
import { useEffect, useMemo } from 'react';
import { DailyVolumeChart, ErrorDistributionChart, RejectionTrendChart } from './dashboard-charts';
import { useDashboardFigures } from './use-dashboard-figures';
import './dashboard.css';

/**
 * The selection from the URL query; missing or unknown values fall back to the user's start hub
 * and Last 30 Days. Also the start hub, for a hub the groups turn out not to have.
 */
function useSelection(): [Selection, (change: Partial<Selection>) => void, string] {
  const [params, setParams] = useSearchParams();
  const startHub = useSession((s) => dashboardStartHub(s.role, s.hubCode));
  const timeframe = params.get('timeframe');
  const selection: Selection = {
    hub: params.get('hub') || startHub,
    timeframe: isTimeframe(timeframe) ? timeframe : DEFAULT_TIMEFRAME,
  };
  const select = (change: Partial<Selection>) => {
    const next = { ...selection, ...change };
    setParams({ hub: next.hub, timeframe: next.timeframe }, { replace: true });
  };
  // An unknown timeframe in the address is replaced by the one shown, as an unknown hub is below.
  const unknownTimeframe = timeframe !== null && !isTimeframe(timeframe);
  useEffect(() => {
    if (!unknownTimeframe) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('timeframe', DEFAULT_TIMEFRAME);
        return next;
      },
      { replace: true },
    );
  }, [unknownTimeframe, setParams]);
  return [selection, select, startHub];
}

/** A top-five table; on a narrow screen it scrolls sideways in its box, then reachable by keyboard. */
function RankTable({ caption, nameHeader, rows }: { caption: string; nameHeader: string; rows: RankRow[] }) {
  const columns: Column<RankRow>[] = [
    { header: nameHeader, cell: (row) => row.name, rowHeader: true },
    { header: 'Rejections', cell: (row) => row.count },
    { header: 'Rejection %', cell: (row) => row.percent },
  ];
  return (
    <DataTable
      caption={caption}
      wrapClassName="vx-table-wrap db-table"
      noteClassName="db-empty"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.name}
      empty="No data available"
    />
  );
}

function Tile({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="vx-card db-tile">
      <span className="vx-caption">{label}</span>
      <span className="db-tile__value" data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

const timeframeOptions = TIMEFRAMES.map(({ value, label }) => ({ value, label }));

export default function Dashboard() {
  const [selection, select, startHub] = useSelection();
  const { stats, groups, groupsKnown, loading, refreshing } = useDashboardFigures(selection);
  const { hub, timeframe } = selection;

  // docs/dashboard.md#selection: only hub groups, the code as value and the lower-cased name as label.
  const hubOptions = useMemo(
    () => [
      { value: ALL_HUBS, label: 'All Hubs' },
      ...groups.filter((g) => g.organization === 'hub').map((g) => ({ value: g.code, label: g.name.toLowerCase() })),
    ],
    [groups],
  );
  // The URL and the start hub may differ in case from the group's code.
  const hubOption = hubOptions.find((o) => o.value.toLowerCase() === hub.toLowerCase());
  // docs/dashboard.md#selection: a hub no hub group has (a mistyped link, a return centre's code)
  // is not a choice; once the groups are known the start hub replaces it, as if none were given.
  // (Comparing with the start hub stops there should that hub be missing from the groups too.)
  const unknownHub = groupsKnown && !hubOption && hub !== startHub;
  useEffect(() => {
    if (unknownHub) select({ hub: startHub });
  }, [unknownHub, select, startHub]);

  // 'ready' once the figures shown are those of the selection; while a new selection's are on
  // their way (from the server) the previous ones stay, marked busy.
  return (
    <section
      className="vx-page"
      data-state={loading || refreshing ? 'loading' : 'ready'}
      aria-busy={refreshing || undefined}
    >
      <header className="db-header">
        <h1 className="vx-page-title">Dashboard · {hubOption?.label ?? hub}</h1>
        <div className="db-filters">
          <SearchSelect
            className="db-filter"
            options={hubOptions}
            value={hubOption?.value ?? null}
            onChange={(value) => value && select({ hub: value })}
            placeholder="Select hub..."
            ariaLabel="Hub"
          />
          <SearchSelect
            className="db-filter"
            options={timeframeOptions}
            value={timeframe}
            onChange={(value) => isTimeframe(value) && select({ timeframe: value })}
            placeholder="Select timeframe..."
            ariaLabel="Timeframe"
          />
        </div>
      </header>
      {loading ? (
        <p className="vx-loading vx-muted" role="status">
          Loading dashboard…
        </p>
      ) : (
        <>
          <div className="db-tiles">
            <Tile label="Verified at Doorstep" value={String(stats.verified)} testId="tile-verified" />
            <Tile label="Rejection %" value={stats.rejection} testId="tile-rejection" />
            <Tile label="Pending" value={String(stats.pending)} testId="tile-pending" />
            <Slot name="dashboard.tile" props={{ hub, timeframe }} />
          </div>
          <div className="db-charts">
            <RejectionTrendChart days={stats.days} trend={stats.trend} />
            <DailyVolumeChart days={stats.days} volume={stats.volume} />
            <ErrorDistributionChart errors={stats.errors} />
          </div>
          <div className="db-tables">
            <RankTable caption="Top Five Rejection Hubs" nameHeader="Hub" rows={stats.topHubs} />
            <RankTable caption="Top Five Rejecting Operators" nameHeader="Operator" rows={stats.topOperators} />
          </div>
        </>
      )}
    </section>
  );
}
