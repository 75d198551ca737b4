// The throwaway PostgreSQL 15 cluster of the suite and the benchmarks (scripts/pg-cluster.ts,
// which `pnpm start:fleet` starts too).
import { Client } from 'pg';
import { startPgCluster, type PgCluster } from '../../../scripts/pg-cluster';

export { startPgCluster, type PgCluster };

/**
 * A cluster of a test file's own, for a test that stops or restarts the server under the
 * console: with an empty database `veritas`, whose URL comes with it.
 */
export async function startOwnPgCluster(): Promise<{ cluster: PgCluster; databaseUrl: string }> {
  const cluster = await startPgCluster();
  const admin = new Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('CREATE DATABASE veritas');
  await admin.end();
  return { cluster, databaseUrl: cluster.url.replace(/\/postgres$/, '/veritas') };
}

declare global {
  /** The cluster started by the jest global setup, stopped by the global teardown. */
  var __VERITAS_PG_CLUSTER__: PgCluster | undefined;
}
