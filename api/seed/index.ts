// Seed and benchmark data, kept out of the server's own code (src/): the demo data `pnpm start`
// loads (scripts/serve.mjs passes demoSeed to createServer when VERITAS_DEMO is on), the bulk
// volume loader of the benchmarks, and the field work the demo shares with the simulator (field/).
// Built to dist/seed.js on its own, so the server's bundle carries none of it.
import type { Db } from '../src/db/schema';
import { demoBanner, loadDemoData } from './demo';

/** Fills an empty database with the demo data and prints the demo accounts. */
export async function demoSeed(db: Db): Promise<void> {
  await loadDemoData(db);
  const banner = await demoBanner(db);
  if (banner) console.log(banner);
}

export { DEMO_PASSWORD, DEMO_USERS, loadDemoData } from './demo';
export { loadVolumeData } from './volume-data';
