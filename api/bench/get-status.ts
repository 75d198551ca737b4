// Benchmark of api/get_status/ over 100k records: time to the last byte and bytes on the wire,
// uncompressed, gzip and brotli. Runs on SQLite, and on PostgreSQL 15 when it is installed
// (a throwaway cluster) or VERITAS_TEST_PG_URL names a server. Goal: ≤ 1.5 s.
// The server runs in a child process, as it would beside a browser, so the client's work of
// receiving the bytes does not share its event loop.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { Client as PgClient } from 'pg';
import { createServer, loadDemoData, migrateToLatest, openDatabase, DEMO_PASSWORD, type ServerOptions } from '../src/index';
import { startPgCluster, type PgCluster } from '../test/support/pg-cluster';
import { Client } from '../test/support/helpers';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);
const RUNS = 5;

interface Measure {
  ms: number;
  bytes: number;
}

function fetchRaw(url: string, headers: Record<string, string>): Promise<Measure> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => {
          if (response.statusCode !== 200) reject(new Error(`status ${response.statusCode}`));
          else resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, bytes });
        });
      })
      .on('error', reject);
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

async function bench(label: string, options: { dataDir: string; databaseUrl?: string }) {
  console.log(`\n== ${label}: ${RECORDS.toLocaleString('en-US')} records`);
  const db = openDatabase(options);
  let started = Date.now();
  await migrateToLatest(db);
  await loadDemoData(db, { records: RECORDS });
  await db.kysely.destroy();
  console.log(`   data loaded in ${((Date.now() - started) / 1000).toFixed(2)} s`);

  const child = fork(__filename, ['serve', JSON.stringify(options)]);
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (message) => resolve(Number(message)));
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const client = new Client(base);
    if ((await client.login('admin_demo', DEMO_PASSWORD)).status !== 200) throw new Error('login failed');
    const cookie = [...client.cookies].map(([name, c]) => `${name}=${c.value}`).join('; ');
    const url = `${base}/veritas/api/get_status/`;

    await fetchRaw(url, { cookie }); // warm-up: caches, JIT
    for (const encoding of ['identity', 'gzip', 'br']) {
      const runs: Measure[] = [];
      for (let run = 0; run < RUNS; run++) runs.push(await fetchRaw(url, { cookie, 'accept-encoding': encoding }));
      const ms = median(runs.map((r) => r.ms));
      console.log(
        `   ${encoding.padEnd(8)} median ${ms.toFixed(0).padStart(5)} ms (min ${Math.min(...runs.map((r) => r.ms)).toFixed(0)}, max ${Math.max(...runs.map((r) => r.ms)).toFixed(0)})   ${mb(runs[0]!.bytes).padStart(9)}   ${ms <= 1500 ? 'OK ≤ 1.5 s' : 'SLOWER than 1.5 s'}`,
      );
    }
  } finally {
    child.kill();
  }
}

/** The child: serves the prepared database until killed. */
async function serve(options: ServerOptions) {
  const { app } = await createServer({ ...options, demo: false, logger: false, adminPassword: crypto.randomUUID() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send?.((app.server.address() as { port: number }).port);
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-bench-'));
  let cluster: PgCluster | undefined;
  try {
    await bench('SQLite', { dataDir: path.join(dataDir, 'sqlite') });

    let pgBase = process.env.VERITAS_TEST_PG_URL;
    if (!pgBase && fs.existsSync('/usr/lib/postgresql/15/bin/initdb')) {
      cluster = await startPgCluster();
      pgBase = cluster.url;
    }
    if (!pgBase) {
      console.log('\n(PostgreSQL skipped: neither /usr/lib/postgresql/15/bin nor VERITAS_TEST_PG_URL)');
      return;
    }
    const name = `veritas_bench_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new PgClient({ connectionString: pgBase });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(pgBase);
    url.pathname = `/${name}`;
    try {
      await bench('PostgreSQL', { dataDir: path.join(dataDir, 'pg'), databaseUrl: url.toString() });
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  } finally {
    cluster?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

(process.argv[2] === 'serve' ? serve(JSON.parse(process.argv[3]!) as ServerOptions) : main()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
