// Benchmark of api/upload/: a realistic 500k-row shipment CSV sent over HTTP in 1 MiB chunks, one
// after the other as the console sends them. Prints the time from the first chunk to the final
// answer, rows per second, the server's CPU time (steadier than the clock on a shared machine) and
// its peak memory, on SQLite and on PostgreSQL 15 when it is installed (a throwaway cluster) or
// VERITAS_TEST_PG_URL names a server.
// Goals: ≥ 50,000 rows/s on SQLite; peak RSS of the server ≤ 300 MB; then, at the volume of 10M
// records, ≥ 100,000 rows/s on SQLite and ≥ 60,000 on PostgreSQL (medians, printed against them
// too). BENCH_ROWS scales it down.
// Each engine runs BENCH_AUDIT_PAIRS (default 3) pairs of uploads, with the audit trail and without
// (createServer({ auditTrail: false })), alternating, each on a fresh database: the median rows/s
// of each and what the trail costs (goal ≤ 5%); with BENCH_CASE_PAIRS=N, N pairs with case opening
// and without (createServer({ caseOpening: false })) instead, and nothing else: what opening cases
// costs the upload (goal ≤ 5%). Then the same rows without the upload around
// them (databaseAlone): how near the upload comes to what the database itself takes.
// Then the upload as users meet it (uploadIntoLoaded): into a database already holding a national
// history, BENCH_LOADED_RECORDS records (default 1M on SQLite, 10M on PostgreSQL) bulk-loaded by
// load:volume's loader, or the database BENCH_DATA_DIR / BENCH_DATABASE_URL names (loaded
// beforehand with load:volume), BENCH_LOADED_RUNS (default 3) uploads one after the other, each of
// new tracking IDs, and their median beside the empty database's. BENCH_UPLOAD_INTO=empty or
// loaded runs one part alone.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { hashPassword } from '../src/auth/password-hashing';
import { sqliteCheckpoints } from '../src/db/checkpoints';
import { nowIso, type Db } from '../src/db/schema';
import { CsvRecordReader } from '../src/upload/csv-records';
import { PACE } from '../src/upload/ingest';
import { checkRow, readHeader, type ShipmentRecord } from '../src/upload/shipment-rows';
import { UPLOAD_CHUNK_BYTES } from '@veritas/shared/domain';
import { recordStore } from '../src/upload/store-records';
import { sqliteRecordInsert } from '../src/upload/store-records.sqlite';
import { insertedOf, rowOf } from '../src/upload/stored-rows';
import { copyPostgres, loadVolumeData } from '../seed/volume-data';
import { WebClient } from '../sim/web-client';
import { HUBS, shipmentCsv } from './shipment-file';
import { auditHead } from './audit-volume';
import {
  CASE_PAIRS,
  compareAuditTrail,
  compareCaseOpening,
  forEachEngine,
  mb,
  median,
  startServerProcess,
  storedRecords,
  withDatabase,
  withFreshDatabase,
  type AuditRunFigure,
  type BenchServerOptions,
  type EngineOptions,
} from './harness';

const ROWS = Number(process.env.BENCH_ROWS ?? 500_000);
const GOAL_ROWS_PER_SECOND = 50_000;
/** The goals of the 10M work (docs/benchmarks.md#upload), by engine. */
const DATABASE_SPEED_GOAL: Record<string, number> = { SQLite: 100_000, PostgreSQL: 60_000 };
const GOAL_PEAK_RSS = 300 * 1024 * 1024;
const ADMIN = { username: 'bench_admin', password: crypto.randomBytes(12).toString('base64url') };

/** `rows` in `ms`, as printed. */
const rowsPerSecond = (rows: number, ms: number) => `${Math.round(rows / (ms / 1000)).toLocaleString('en-US')} rows/s`;

/** CPU time the process has used: on a shared machine it varies less than the wall-clock time. */
function cpuSeconds(pid: number): number {
  // /proc/<pid>/stat: utime and stime, in ticks of 1/100 s, are the 12th and 13th fields after the command.
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The file's hubs and the benchmark's admin, added to the database unless there already. */
async function prepare(options: EngineOptions) {
  await withDatabase(options, async (db) => {
    await db.kysely
      .insertInto('groups')
      .values(HUBS.map((code) => ({ name: code, code, organization: 'hub' as const })))
      .onConflict((oc) => oc.doNothing())
      .execute();
    await db.kysely
      .insertInto('users')
      .values({
        username: ADMIN.username,
        email: 'bench@example.com',
        password_hash: await hashPassword(ADMIN.password),
        role: 'admin',
        group_id: null,
        created_at: nowIso(),
      })
      .onConflict((oc) =>
        oc.column('username').doUpdateSet((eb) => ({ password_hash: eb.ref('excluded.password_hash') })),
      )
      .execute();
  });
}

/** One upload of `file` on a prepared database; prints its figures, answers its rows/s. */
async function uploadOnce(
  label: string,
  options: EngineOptions,
  file: Buffer,
  serverOptions: BenchServerOptions,
): Promise<AuditRunFigure> {
  await prepare(options);
  const totalChunks = Math.ceil(file.length / UPLOAD_CHUNK_BYTES);
  const server = await startServerProcess(options, {}, serverOptions);
  try {
    const client = new WebClient(server.base);
    if ((await client.login(ADMIN.username, ADMIN.password)).status !== 200) throw new Error('login failed');
    const uploadId = crypto.randomUUID();
    server.resetPeakRss();
    const rssBefore = server.peakRssBytes();
    const cpuBefore = cpuSeconds(server.child.pid!);
    const started = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
    let answer;
    let beforeLast = 0;
    for (let index = 0; index < totalChunks; index++) {
      const content = file.subarray(index * UPLOAD_CHUNK_BYTES, (index + 1) * UPLOAD_CHUNK_BYTES);
      if (index === totalChunks - 1) beforeLast = elapsed();
      answer = await client.postMultipart(
        'api/upload/',
        { upload_id: uploadId, chunk_index: index, total_chunks: totalChunks },
        { name: 'shipments.csv', content },
      );
      if (answer.status !== 200) throw new Error(`chunk ${index}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    const seconds = elapsed();
    const peak = server.peakRssBytes();
    const cpu = cpuSeconds(server.child.pid!) - cpuBefore;
    if (answer!.body.processed !== ROWS)
      throw new Error(`stored ${answer!.body.processed} of ${ROWS}: ${answer!.body.message}`);

    const rate = ROWS / seconds;
    console.log(`   ${answer!.body.message}`);
    console.log(
      `   total ${seconds.toFixed(2)} s from the first chunk to the result (chunks before the last: ${beforeLast.toFixed(2)} s; last chunk and processing: ${(seconds - beforeLast).toFixed(2)} s)`,
    );
    const verdict =
      label === 'SQLite'
        ? `${rate >= GOAL_ROWS_PER_SECOND ? 'OK' : 'MISSED'} (goal ≥ ${GOAL_ROWS_PER_SECOND.toLocaleString('en-US')})`
        : '(the rows/s goal is set for SQLite)';
    console.log(`   ${Math.round(rate).toLocaleString('en-US')} rows/s   ${verdict}`);
    console.log(
      `   server CPU time ${cpu.toFixed(2)} s (${Math.round(ROWS / cpu).toLocaleString('en-US')} rows per CPU second; load average ${os.loadavg()[0]!.toFixed(2)})`,
    );
    console.log(
      `   server peak RSS ${mb(peak)} (${mb(rssBefore)} before the upload)   ${peak <= GOAL_PEAK_RSS ? 'OK' : 'MISSED'} (goal ≤ ${mb(GOAL_PEAK_RSS)})`,
    );
    return { rate, perCpuSecond: ROWS / cpu };
  } finally {
    await server.stop();
    console.log(`   ${await withDatabase(options, auditHead)} audit entries written`);
  }
}

/** Stores `records` through the upload's writes, in its batches and as many at once. */
async function storeInBatches(db: Db, records: ShipmentRecord[], rows: number[]): Promise<void> {
  const store = recordStore(db, { uploadId: crypto.randomUUID(), resumed: false });
  const { rows: size, atOnce } = PACE[db.engine];
  const underWay: Promise<unknown>[] = [];
  for (let i = 0; i < records.length; i += size) {
    underWay.push(store(records.slice(i, i + size), rows.slice(i, i + size)));
    if (underWay.length >= atOnce) await underWay.shift();
  }
  await Promise.all(underWay);
}

/** The rows as device_records holds them, for COPY. */
function storedRows(records: ShipmentRecord[], rows: number[]) {
  const uploadId = crypto.randomUUID();
  return records.map((record, i) => ({ ...insertedOf(record, rowOf(record), rows[i]!), upload_id: uploadId }));
}

/** The file's rows as the upload stores them: read and checked as it reads and checks them. */
function shipmentRecords(file: Buffer): ShipmentRecord[] {
  const hubs = new Map(HUBS.map((code) => [code, code]));
  const reader = new CsvRecordReader();
  const [header, ...rows] = [...reader.push(file.toString('utf8')), ...reader.end()];
  const read = header && 'fields' in header ? readHeader(header.fields) : null;
  if (!read || !('columns' in read)) throw new Error('the benchmark file has no usable header');
  const uploadTime = nowIso();
  return rows.map((row) => {
    const checked = 'fields' in row ? checkRow(row.fields, read.columns, hubs, uploadTime) : null;
    if (!checked || !('record' in checked)) throw new Error('the benchmark file has a row the upload refuses');
    return checked.record;
  });
}

/**
 * How fast the database takes the same rows without the upload around them: the upload's own
 * writes (recordStore: insert, summaries and event per batch, in the upload's batches, in process,
 * with no HTTP, chunks or CSV; SQLite checkpointing as a server does), then what the engine takes
 * of the rows alone, straight into device_records with its indexes and foreign keys: one COPY on
 * PostgreSQL, the upload's inserts without their summaries and event on SQLite.
 */
async function databaseAlone(label: string, options: EngineOptions, records: ShipmentRecord[]): Promise<void> {
  const rate = (ms: number) => rowsPerSecond(records.length, ms);
  const rows = records.map((_, i) => i + 1);
  /** `work` on a fresh prepared database, SQLite checkpointing as a server does (createServer); answers its ms. */
  const timed = (work: (db: Db) => Promise<void>) =>
    withFreshDatabase(options, 0, async (fresh) => {
      await prepare(fresh);
      return withDatabase(fresh, async (db) => {
        const checkpoints = sqliteCheckpoints(db);
        checkpoints.start();
        try {
          const started = performance.now();
          await work(db);
          return performance.now() - started;
        } finally {
          await checkpoints.stop();
        }
      });
    });
  const store = await timed((db) => storeInBatches(db, records, rows));
  console.log(`   the upload's writes alone (no HTTP, chunks or CSV): ${rate(store)}`);
  const alone = await timed((db) => (db.sqlite ? insertsAlone(db, records, rows) : copyAlone(db, records, rows)));
  console.log(
    label === 'PostgreSQL'
      ? `   one COPY of the rows into device_records with its indexes: ${rate(alone)}`
      : `   the upload's inserts alone into device_records with its indexes (no summaries, no event): ${rate(alone)}`,
  );
}

/**
 * SQLite: the upload's own insert of each record in its batches, each batch a transaction, and
 * nothing else: what the one writing connection takes of these rows at best.
 */
async function insertsAlone(db: Db, records: ShipmentRecord[], rows: number[]): Promise<void> {
  const insert = sqliteRecordInsert(db.sqlite!, crypto.randomUUID());
  const size = PACE.sqlite.rows;
  for (let start = 0; start < records.length; start += size) {
    await db.transaction(async () => {
      for (let i = start; i < Math.min(start + size, records.length); i++)
        insert(records[i]!, rowOf(records[i]!), rows[i]!);
    });
  }
}

/** PostgreSQL: one COPY straight into device_records, the engine's own bulk path (no summaries, no duplicate check). */
async function copyAlone(db: Db, records: ShipmentRecord[], rows: number[]): Promise<void> {
  const client = await db.pg!.connect();
  try {
    await copyPostgres(client, storedRows(records, rows)[Symbol.iterator](), () => undefined);
  } finally {
    client.release();
  }
}

/** BENCH_UPLOAD_INTO: `empty`, `loaded`, or both (unset). */
const INTO = process.env.BENCH_UPLOAD_INTO;
const LOADED_RUNS = Math.max(1, Number(process.env.BENCH_LOADED_RUNS ?? 3));
const loadedRecords = (label: string) =>
  Number(process.env.BENCH_LOADED_RECORDS ?? (label === 'SQLite' ? 1_000_000 : 10_000_000));

/** The upload into an empty database: pairs with and without the audit trail, then its parts alone. */
async function uploadIntoEmpty(label: string, options: EngineOptions, file: Buffer): Promise<number> {
  const { on, off } = await compareAuditTrail('rows/s', (auditTrail, run) =>
    withFreshDatabase(options, run, (fresh) => uploadOnce(label, fresh, file, { auditTrail })),
  );
  const goal = DATABASE_SPEED_GOAL[label]!;
  const met = (rate: number) => `${Math.round(rate).toLocaleString('en-US')} ${rate >= goal ? 'OK' : 'MISSED'}`;
  console.log(
    `   at database speed (goal ≥ ${goal.toLocaleString('en-US')} rows/s): median with the trail ${met(on.rate)}, without ${met(off.rate)}`,
  );
  const started = performance.now();
  const records = shipmentRecords(file);
  const reading = performance.now() - started;
  console.log(`   the file read and checked alone (no database): ${rowsPerSecond(records.length, reading)}`);
  await databaseAlone(label, options, records);
  return on.rate;
}

/**
 * The upload as users meet it: into a database that already holds a national history, served by
 * the production build, LOADED_RUNS uploads one after the other, each of tracking IDs of its own.
 * Answers the median rows/s.
 */
async function uploadIntoLoaded(label: string, options: EngineOptions): Promise<number> {
  if (options.preloaded) {
    console.log(
      `\n== ${label}: loaded beforehand, ${(await withDatabase(options, storedRecords)).toLocaleString('en-US')} records`,
    );
  } else {
    const records = loadedRecords(label);
    console.log(`\n== ${label}: loading ${records.toLocaleString('en-US')} records (load:volume's bulk loader)`);
    const started = performance.now();
    await withDatabase(options, (db) => loadVolumeData(db, { records }));
    console.log(`   loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const rates: number[] = [];
  for (let run = 1; run <= LOADED_RUNS; run++) {
    const stored = await withDatabase(options, storedRecords);
    console.log(`-- upload ${run} of ${LOADED_RUNS} into ${stored.toLocaleString('en-US')} records`);
    const file = shipmentCsv(ROWS, `SHP${crypto.randomBytes(3).toString('hex').toUpperCase()}`);
    rates.push((await uploadOnce(label, options, file, {})).rate);
  }
  return median(rates);
}

async function bench(label: string, options: EngineOptions) {
  const file = shipmentCsv(ROWS);
  const totalChunks = Math.ceil(file.length / UPLOAD_CHUNK_BYTES);
  console.log(`\n== ${label}: ${ROWS.toLocaleString('en-US')} rows, ${mb(file.length)} in ${totalChunks} chunks`);
  if (CASE_PAIRS > 0) {
    await compareCaseOpening('rows/s', (caseOpening, run) =>
      withFreshDatabase(options, run, (fresh) => uploadOnce(label, fresh, file, { caseOpening })),
    );
    return;
  }
  const empty = INTO === 'loaded' ? undefined : await uploadIntoEmpty(label, options, file);
  if (INTO === 'empty') return;
  // Beside the engine's own database, which the empty runs leave alone; or the one named (preloaded).
  const loaded = options.preloaded
    ? await uploadIntoLoaded(label, options)
    : await withFreshDatabase(options, 0, (fresh) => uploadIntoLoaded(label, fresh));
  const rate = (value: number) => `${Math.round(value).toLocaleString('en-US')} rows/s`;
  console.log(
    `   into a loaded database: median ${rate(loaded)}` +
      (empty === undefined ? '' : `, into an empty one ${rate(empty)} (${((loaded / empty) * 100).toFixed(0)}%)`),
  );
}

forEachEngine(bench, { preloadable: true }).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
