// The throwaway PostgreSQL 15 cluster of the suite and the benchmarks (scripts/pg-cluster.cjs,
// which `pnpm start:fleet` starts too).
import type { PgCluster } from '../../../scripts/pg-cluster.cjs';

export { startPgCluster, type PgCluster } from '../../../scripts/pg-cluster.cjs';

declare global {
  /** The cluster started by the jest global setup, stopped by the global teardown. */
  var __VERITAS_PG_CLUSTER__: PgCluster | undefined;
}
