// Benchmarks' data: a throwaway data folder with the demo users and `count` device records,
// written through the built API's own demo-data code.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../support/server';

interface ApiModule {
  openDatabase(o: { dataDir: string }): { kysely: { destroy(): Promise<void> } };
  migrateToLatest(db: unknown): Promise<void>;
  loadDemoData(db: unknown, o: { records: number }): Promise<void>;
}

export async function seededDataDir(count: number): Promise<string> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'veritas-bench-'));
  console.log(`seeding ${count.toLocaleString('en-US')} records …`);
  const api = require(path.join(repoRoot, 'api/dist/index.js')) as ApiModule;
  const db = api.openDatabase({ dataDir });
  await api.migrateToLatest(db);
  await api.loadDemoData(db, { records: count });
  await db.kysely.destroy();
  return dataDir;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
