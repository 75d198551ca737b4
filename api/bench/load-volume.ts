// Fills the configured database with benchmark volume (seed/volume-data.ts): the demo organization,
// more hubs with their operators and verifiers, and N device records in every state, for trying
// the console or the pick list at millions of records.
//
//   pnpm --filter api load:volume -- --records 10000000 [--hubs 40] [--seed 20250101]
//
// The database is the server's: DATABASE_URL (PostgreSQL), else veritas.sqlite in VERITAS_DATA_DIR
// (default .veritas-data), a relative folder being taken from where pnpm was run. It is migrated
// first and must hold no device records. Prints the rows per second of the insert and overall.
// The flagged records' cases are made after them (seed/volume-cases.ts); --cases-only makes them
// alone, on a database that already holds volume records without cases (`load:cases`).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { dataDirFrom, migrateToLatest, openDatabase } from '../src/db/connection';
import { loadVolumeData } from '../seed/volume-data';
import { loadVolumeCases } from '../seed/volume-cases';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    records: { type: 'string', default: '1000000' },
    hubs: { type: 'string', default: '40' },
    seed: { type: 'string', default: '20250101' },
    'cases-only': { type: 'boolean', default: false },
  },
});

const count = (name: string, text: string) => {
  const value = Number(text.replace(/[_,]/g, ''));
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} must be a whole number, not ${text}`);
  return value;
};

async function main() {
  const records = count('records', values.records);
  const hubs = Math.max(1, count('hubs', values.hubs));
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = dataDirFrom(process.env.VERITAS_DATA_DIR);
  const db = openDatabase({ dataDir, databaseUrl });
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  try {
    await migrateToLatest(db);
    if (values['cases-only']) {
      console.log(
        `Making the cases of the flagged records in ${databaseUrl ? 'PostgreSQL' : path.join(dataDir, 'veritas.sqlite')}`,
      );
      const made = await loadVolumeCases(db, { progress: (n) => console.log(`  ${fmt(n)} cases made`) });
      console.log(
        `Made ${fmt(made.cases)} cases in ${((made.insertMs + made.indexMs) / 1000).toFixed(1)} s ` +
          `(insert ${(made.insertMs / 1000).toFixed(1)} s, ${fmt(made.cases / Math.max(made.insertMs / 1000, 0.001))} cases/s; indexes ${(made.indexMs / 1000).toFixed(1)} s)`,
      );
      return;
    }
    console.log(
      `Loading ${fmt(records)} records over ${hubs} hubs into ${databaseUrl ? 'PostgreSQL' : path.join(dataDir, 'veritas.sqlite')}`,
    );
    const started = Date.now();
    let reported = started;
    const times = await loadVolumeData(db, {
      records,
      hubs,
      seed: count('seed', values.seed),
      progress: (stored) => {
        const now = Date.now();
        if (now - reported < 5000) return;
        reported = now;
        console.log(`  ${fmt(stored)} rows stored (${fmt(stored / ((now - started) / 1000))} rows/s)`);
      },
    });
    const cases = await loadVolumeCases(db);
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const total = Date.now() - started;
    console.log(
      `  insert: ${seconds(times.insertMs)} (${fmt(records / Math.max(times.insertMs / 1000, 0.001))} rows/s)`,
    );
    console.log(`  indexes, search and summaries: ${seconds(times.indexMs)}`);
    console.log(
      `  cases of the flagged records: ${fmt(cases.cases)} in ${seconds(cases.insertMs + cases.indexMs)} (indexes ${seconds(cases.indexMs)})`,
    );
    console.log(
      `Loaded ${fmt(records)} records in ${seconds(total)}: ${fmt(records / Math.max(total / 1000, 0.001))} rows/s overall`,
    );
  } finally {
    await db.kysely.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
