import { startPgCluster } from './pg-cluster';

export default async function setup(): Promise<void> {
  if (process.env.VERITAS_TEST_PG_URL) return;
  const cluster = await startPgCluster();
  globalThis.__VERITAS_PG_CLUSTER__ = cluster;
  process.env.VERITAS_TEST_PG_URL = cluster.url;
}
