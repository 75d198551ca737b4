// `pnpm start:fleet`: build what is stale, then serve the console through nginx on PORT from
// VERITAS_INSTANCES (default 2) instances on one PostgreSQL: DATABASE_URL, else a throwaway
// cluster. Ctrl-C or SIGTERM stops everything. (docs/operations.md#fleet)
import { createRequire } from 'node:module';
import { buildStale } from './build-stale.mjs';

const require = createRequire(import.meta.url);
const { startFleet } = require('./fleet.cjs');

let fleet;
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  // Still starting: exiting makes startFleet kill what it started and remove the cluster.
  if (!fleet) process.exit(130);
  console.log('Stopping the fleet …');
  await fleet.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

buildStale();
fleet = await startFleet({
  instances: Number(process.env.VERITAS_INSTANCES || 2),
  databaseUrl: process.env.DATABASE_URL || undefined,
});
console.log(
  [
    `Veritas console on ${fleet.url}  (nginx; remotes on the next five ports)`,
    ...fleet.instances.map((instance, i) => `  instance ${i + 1}: ${instance.url} (pid ${instance.pid})`),
    `  database: ${process.env.DATABASE_URL ? 'DATABASE_URL' : `a throwaway PostgreSQL 15 cluster, ${fleet.databaseUrl}`}`,
    'Ctrl-C stops everything.',
  ].join('\n'),
);
