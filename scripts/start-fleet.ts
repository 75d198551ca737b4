// `pnpm start:fleet`: build what is stale, then serve the console through nginx on PORT from
// VERITAS_INSTANCES (default 2) instances on one PostgreSQL: DATABASE_URL, else a throwaway
// cluster. Ctrl-C or SIGTERM stops everything. (docs/operations.md#fleet)
import { buildStale } from './build-stale.mjs';
import { startFleet, type Fleet } from './fleet';

let fleet: Fleet | undefined;
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

async function main() {
  buildStale();
  fleet = await startFleet({
    instances: Number(process.env.VERITAS_INSTANCES || 2),
    databaseUrl: process.env.DATABASE_URL || undefined,
  });
  console.log(
    [
      `Veritas console on ${fleet.url}  (nginx; the remotes from the registry)`,
      ...fleet.instances.map((instance, i) => `  instance ${i + 1}: ${instance.url} (pid ${instance.pid})`),
      `  database: ${process.env.DATABASE_URL ? 'DATABASE_URL' : `a throwaway PostgreSQL 15 cluster, ${fleet.databaseUrl}`}`,
      'Ctrl-C stops everything.',
    ].join('\n'),
  );
}

// A CommonJS module (as tsx runs the scripts) has no top-level await; an error still ends the process.
void main();
