// The throwaway PostgreSQL 15 cluster of the suite and the benchmarks (scripts/pg-cluster.ts,
// which `pnpm start:fleet` starts too).
import type { PgCluster } from '../../../scripts/pg-cluster';

export { startPgCluster, type PgCluster } from '../../../scripts/pg-cluster';

declare global {
  /** The cluster started by the jest global setup, stopped by the global teardown. */
  var __VERITAS_PG_CLUSTER__: PgCluster | undefined;
}
