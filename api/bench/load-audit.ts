// Fills the configured database's audit trail with benchmark volume (audit-volume.ts): N realistic
// entries over ~400 days ending now, appended after whatever the trail holds, forming a valid
// chain (audit/verify/ holds over them).
//
//   pnpm --filter api load:audit -- --entries 10000000 [--seed 20250101] [--users 3000] [--days 400]
//
// The database is the server's: DATABASE_URL (PostgreSQL), else veritas.sqlite in VERITAS_DATA_DIR
// (default .veritas-data), a relative folder being taken from where pnpm was run. It is migrated
// first. Prints the rows per second of the insert and overall.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { dataDirFrom, migrateToLatest, openDatabase } from '../src/db/connection';
import { loadAuditVolume } from './audit-volume';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    entries: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '20250101' },
    users: { type: 'string', default: '3000' },
    days: { type: 'string', default: '400' },
  },
});

const count = (name: string, text: string) => {
  const value = Number(text.replace(/[_,]/g, ''));
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} must be a whole number, not ${text}`);
  return value;
};

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main() {
  const entries = count('entries', values.entries);
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = dataDirFrom(process.env.VERITAS_DATA_DIR);
  const db = openDatabase({ dataDir, databaseUrl });
  try {
    await migrateToLatest(db);
    console.log(
      `Appending ${fmt(entries)} audit entries to ${databaseUrl ? 'PostgreSQL' : path.join(dataDir, 'veritas.sqlite')}`,
    );
    const started = Date.now();
    let reported = started;
    const result = await loadAuditVolume(db, {
      entries,
      seed: count('seed', values.seed),
      users: Math.max(1, count('users', values.users)),
      days: Math.max(1, count('days', values.days)),
      progress: (stored) => {
        const now = Date.now();
        if (now - reported < 5000) return;
        reported = now;
        console.log(`  ${fmt(stored)} entries stored (${fmt(stored / ((now - started) / 1000))} rows/s)`);
      },
    });
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const total = Date.now() - started;
    console.log(
      `  insert: ${seconds(result.insertMs)} (${fmt(entries / Math.max(result.insertMs / 1000, 0.001))} rows/s)`,
    );
    console.log(
      `  ${result.rebuiltIndexes ? 'indexes built again' : 'indexes kept'}, statistics: ${seconds(result.indexMs)}`,
    );
    console.log(
      `Appended seq ${fmt(result.first)}…${fmt(result.last)} in ${seconds(total)}: ${fmt(entries / Math.max(total / 1000, 0.001))} rows/s overall`,
    );
  } finally {
    await db.kysely.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
