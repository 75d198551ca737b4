// `pnpm --filter api audit:verify` and `audit:prune` (docs/audit.md): the audit trail's check and
// its retention, run against the server's database (DATABASE_URL, else veritas.sqlite under
// VERITAS_DATA_DIR, default .veritas-data, a relative folder taken from where pnpm was run).
// verify exits 1 when the chain breaks, naming the first entry where it does.
import { dataDirFrom, migrateToLatest, openDatabase } from '../db/connection';
import { verifyChain } from './chain';
import { pruneAuditLog, retentionDaysFrom } from './retention';

async function main(command: string | undefined): Promise<number> {
  if (command !== 'verify' && command !== 'prune') {
    console.error('Usage: audit-command verify | prune');
    return 2;
  }
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = dataDirFrom(process.env.VERITAS_DATA_DIR);
  const db = openDatabase({ dataDir, databaseUrl });
  try {
    await migrateToLatest(db);
    if (command === 'prune') {
      const days = retentionDaysFrom(process.env);
      const pruned = await pruneAuditLog(db, days);
      console.log(
        pruned
          ? `Deleted ${pruned.deleted} entries older than ${days} days (through entry ${pruned.throughSeq}).`
          : `No entry is older than ${days} days.`,
      );
      return 0;
    }
    const started = Date.now();
    const result = await verifyChain(db);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (result.broken) {
      console.error(`The chain breaks at entry ${result.broken.seq}: ${result.broken.reason}.`);
      return 1;
    }
    console.log(
      result.checked === 0
        ? 'The audit log is empty.'
        : `The chain holds: entries ${result.first} to ${result.last} (${result.checked} checked in ${seconds} s).`,
    );
    return 0;
  } finally {
    await db.kysely.destroy();
  }
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`audit: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
