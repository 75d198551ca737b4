// An upload whose instance died mid-ingest is finished by another (docs/operations.md#upload-leases):
// the lease is renewed while an ingest works; once it ran out, the resent final chunk (or a sweep)
// takes the upload over and runs the file again from its first row, with the counts, errors and
// duplicates of one clean run, no row lost or stored twice; a live lease answers 409; a closing
// server hands the lease of its background ingest over.
import crypto from 'node:crypto';
import type { UploadResult } from '@veritas/shared/domain';
import { sql } from 'kysely';
import { completeUpload, ingestUpload } from '../src/upload/ingest';
import { LEASE_MS, LeaseLost, takeOver, type Lease } from '../src/upload/lease';
import { claimUpload, finishUpload, storeChunk, type Chunk } from '../src/upload/repository';
import { SWEEP_MS } from '../src/upload/sweeper';
import { build, uploadCsv, type Answer } from './support/build';
import { eventually } from '../../test-support/eventually';

// Only the sweeper's interval is faked: no instance of this file sweeps on its own while a test
// sets a stale upload up for another taker; a test that wants the periodic sweep moves time on.
jest.useFakeTimers({
  doNotFake: [
    'Date',
    'hrtime',
    'nextTick',
    'performance',
    'queueMicrotask',
    'requestAnimationFrame',
    'cancelAnimationFrame',
    'requestIdleCallback',
    'cancelIdleCallback',
    'setImmediate',
    'clearImmediate',
    'setTimeout',
    'clearTimeout',
  ],
});

const api = build({
  groups: [{ code: 'HUB1', organization: 'hub' }],
  users: [{ username: 'admin1', role: 'admin' }],
  signIn: { admin: 'admin1' },
});

const HEADER =
  'tracking_id,hub_code,device_type,device_brand,device_model_name,is_blindpick,blind_brand,blind_model,created_date';
const CHUNK_SIZE = 64 * 1024;
/** Records stored before the tests: a file naming them has true duplicates. */
const PRESTORED = ['PRE-0', 'PRE-1', 'PRE-2'];

/**
 * A shipment whose tracking IDs start with `prefix` (5 characters, so that every message is as
 * long as in another prefix's file): valid rows, rows breaking rules, tracking IDs already stored,
 * and tracking IDs repeated in the file, within a batch of 1,000 rows and across batches.
 */
function shipment(prefix: string, rows: number): Buffer {
  const lines = [HEADER];
  for (let row = 1; row <= rows; row++) {
    let id = `${prefix}-${row}`;
    let hub = 'HUB1';
    if (row % 97 === 0) hub = 'NOPE';
    else if (row % 89 === 0) id = `bad id ${row}`;
    else if (row % 211 === 0) id = PRESTORED[row % PRESTORED.length]!;
    else if (row % 500 === 0) id = `${prefix}-${row - 499}`;
    else if (row % 50 === 0) id = `${prefix}-${row - 3}`;
    lines.push(`${id},${hub},mobile,Samsung,Galaxy S21,false,,,${row % 7 === 0 ? '' : '2025-03-01T10:00:00Z'}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

const SMALL = 3500; // four batches
const LARGE = 20_000; // twenty: a background ingest is still under way when its server closes
const cleanRuns = new Map<number, UploadResult>();
let adminId: number;

beforeAll(async () => {
  const pre = await uploadCsv(
    api.as.admin!,
    'pre.csv',
    `${HEADER}\n${PRESTORED.map((id) => `${id},HUB1,,,,,,,`).join('\n')}\n`,
  );
  expect(pre[pre.length - 1]!.body).toMatchObject({ processed: PRESTORED.length });
  for (const rows of [SMALL, LARGE]) {
    const answers = await uploadCsv(
      api.as.admin!,
      'clean.csv',
      shipment(rows === SMALL ? 'CLEAN' : 'CLEAR', rows),
      CHUNK_SIZE,
    );
    const result = answers[answers.length - 1]!;
    expect(result.status).toBe(200);
    cleanRuns.set(rows, result.body);
  }
  // The file has what the rules are about.
  expect(cleanRuns.get(SMALL)!.duplicates.map((d) => d.tracking_id)).toEqual(
    expect.arrayContaining(['PRE-1', 'CLEAN-1', 'CLEAN-47']),
  );
  expect(cleanRuns.get(SMALL)!.errors_total).toBeGreaterThan(0);
  adminId = (
    await api.db.kysely.selectFrom('users').select('id').where('username', '=', 'admin1').executeTakeFirstOrThrow()
  ).id;
});

/** The clean run of a file of `rows` rows, as the file with `prefix` would read. */
function cleanResult(rows: number, prefix: string): UploadResult {
  const clean = rows === SMALL ? 'CLEAN' : 'CLEAR';
  return JSON.parse(JSON.stringify(cleanRuns.get(rows)).replaceAll(`${clean}-`, `${prefix}-`));
}

/** A file's chunks as the console cuts them, all under one new upload id. */
function chunksOf(content: Buffer): Chunk[] {
  const uploadId = crypto.randomUUID();
  const totalChunks = Math.ceil(content.length / CHUNK_SIZE);
  return Array.from({ length: totalChunks }, (_, chunkIndex) => ({
    uploadId,
    chunkIndex,
    totalChunks,
    fileName: 'shipment.csv',
    data: content.subarray(chunkIndex * CHUNK_SIZE, (chunkIndex + 1) * CHUNK_SIZE),
  }));
}

/** Every chunk received; the upload not claimed yet. */
async function received(rows: number, prefix: string): Promise<Chunk[]> {
  const chunks = chunksOf(shipment(prefix, rows));
  for (const chunk of chunks) await storeChunk(api.db, adminId, chunk);
  return chunks;
}

const last = (chunks: Chunk[]) => chunks[chunks.length - 1]!;

const send = (chunk: Chunk): Promise<Answer> =>
  api.as.admin!.postMultipart(
    'api/upload/',
    { upload_id: chunk.uploadId, chunk_index: chunk.chunkIndex, total_chunks: chunk.totalChunks },
    { name: chunk.fileName, content: chunk.data },
  );

/** An instance that claimed the upload, stored its first batches and died: its lease then ran out. */
async function diedMidIngest(chunks: Chunk[]): Promise<void> {
  const lease = (await claimUpload(api.db, adminId, last(chunks)))!;
  let keeps = 0;
  const dying = {
    upload: lease.upload,
    async keep() {
      if (++keeps === 6) throw new Error('the instance died');
    },
  };
  await expect(ingestUpload(api.db, dying)).rejects.toThrow('the instance died');
  await runOut(chunks);
}

/** The lease of the upload ran out (no renewal for longer than a lease). */
async function runOut(chunks: Chunk[]): Promise<void> {
  await api.db.kysely
    .updateTable('uploads')
    .set({ lease_until_ms: Date.now() - 1 })
    .where('upload_id', '=', last(chunks).uploadId)
    .execute();
}

async function storedOf(uploadId: string): Promise<number> {
  const row = await api.db.kysely
    .selectFrom('device_records')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('upload_id', '=', uploadId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function uploadRow(uploadId: string) {
  return api.db.kysely
    .selectFrom('uploads')
    .select(['status', 'lease_until_ms', 'result'])
    .where('upload_id', '=', uploadId)
    .executeTakeFirstOrThrow();
}

/**
 * No row lost or stored twice: the rows stored from the file are those the clean run stored, each
 * once with its upload and row, and the pick list's summaries count every record once.
 */
async function expectStoredAsCleanRun(prefix: string, rows: number, uploadId: string): Promise<void> {
  const clean = rows === SMALL ? 'CLEAN' : 'CLEAR';
  const storedRows = async (p: string) =>
    (
      await api.db.kysely
        .selectFrom('device_records')
        .select(['tracking_id', 'upload_row', 'upload_id'])
        .where('tracking_id', 'like', `${p}-%`)
        .execute()
    )
      .map((r) => `${r.tracking_id.slice(p.length)}@${r.upload_row}`)
      .sort();
  const [mine, theirs] = [await storedRows(prefix), await storedRows(clean)];
  expect(mine).toEqual(theirs);
  expect(mine).toHaveLength(cleanRuns.get(rows)!.processed);
  expect(await storedOf(uploadId)).toBe(mine.length);
  const { rows: sums } = await sql<{ records: number | string; counted: number | string }>`
    select (select count(*) from device_records) as records, (select sum(total) from device_counts) as counted`.execute(
    api.db.kysely,
  );
  expect(Number(sums[0]!.counted)).toBe(Number(sums[0]!.records));
}

test('a lease is renewed while its ingest works: past the first lease’s end, no other instance can take the upload over', async () => {
  const chunks = await received(SMALL, 'RENEW');
  let now = Date.now();
  // Each reading of this clock is 5 s later: the ingest outlives its first lease.
  const lease = (await claimUpload(api.db, adminId, last(chunks), null, { clock: () => (now += 5000) }))!;
  const firstUntil = lease.until;
  const result = await ingestUpload(api.db, lease);
  expect(lease.until).toBeGreaterThan(firstUntil + LEASE_MS);
  expect(Number((await uploadRow(last(chunks).uploadId)).lease_until_ms)).toBe(lease.until);
  expect(await takeOver(api.db, last(chunks).uploadId, { clock: () => firstUntil + 1 })).toBeUndefined();
  await finishUpload(api.db, lease, result);
  expect(result).toEqual(cleanResult(SMALL, 'RENEW'));
});

test('a renewal that finds the lease taken over stops the ingest between batches; the instance that took it finishes with exact counts', async () => {
  const chunks = await received(SMALL, 'STALL');
  const { uploadId } = last(chunks);
  let now = Date.now();
  const first = (await claimUpload(api.db, adminId, last(chunks), null, { clock: () => now }))!;
  let second: Lease | undefined;
  let keeps = 0;
  const stalling = {
    upload: first.upload,
    async keep() {
      if (++keeps === 6) {
        // The first instance stalls past its lease; another takes the upload over meanwhile.
        second = await takeOver(api.db, uploadId, { clock: () => first.until + 1 });
        now += LEASE_MS + 1;
      }
      await first.keep();
    },
  };
  await expect(ingestUpload(api.db, stalling)).rejects.toThrow(LeaseLost);
  const storedBefore = await storedOf(uploadId);
  expect(storedBefore).toBeGreaterThan(0);
  expect(storedBefore).toBeLessThan(cleanRuns.get(SMALL)!.processed);
  // The first instance cannot store a result any more.
  await expect(finishUpload(api.db, first, cleanResult(SMALL, 'STALL'))).rejects.toThrow(LeaseLost);

  expect(await completeUpload(api.db, second!)).toEqual(cleanResult(SMALL, 'STALL'));
  await expectStoredAsCleanRun('STALL', SMALL, uploadId);
});

test('a processing upload whose lease ran out is taken over by the resent final chunk, which answers the result of one clean run: no row lost or stored twice', async () => {
  const chunks = await received(SMALL, 'RESND');
  await diedMidIngest(chunks);
  const storedBefore = await storedOf(last(chunks).uploadId);
  expect(storedBefore).toBeGreaterThan(0);
  expect(storedBefore).toBeLessThan(cleanRuns.get(SMALL)!.processed);

  const answer = await send(last(chunks));
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual(cleanResult(SMALL, 'RESND'));
  await expectStoredAsCleanRun('RESND', SMALL, last(chunks).uploadId);
  expect(await uploadRow(last(chunks).uploadId)).toMatchObject({ status: 'done' });
  // Sent again, it answers the same result and stores nothing.
  expect((await send(last(chunks))).body).toEqual(answer.body);
  await expectStoredAsCleanRun('RESND', SMALL, last(chunks).uploadId);
});

test('a processing upload whose lease is live answers 409 to any chunk; once the lease ran out any chunk takes it over and answers the result', async () => {
  const chunks = await received(SMALL, 'ALIVE');
  // An instance holds it and is working (its lease renewed, nothing stored yet).
  expect(await claimUpload(api.db, adminId, last(chunks))).toBeDefined();
  for (const chunk of [last(chunks), chunks[0]!]) {
    const answer = await send(chunk);
    expect([answer.status, answer.body.error]).toEqual([409, 'This upload is being processed.']);
  }
  expect(await storedOf(last(chunks).uploadId)).toBe(0);

  await runOut(chunks);
  const answer = await send(chunks[0]!);
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual(cleanResult(SMALL, 'ALIVE'));
  await expectStoredAsCleanRun('ALIVE', SMALL, last(chunks).uploadId);
});

test('every 10 s an instance sweeps: it finishes a stale upload with nobody asking, and the resent final chunk then gets the stored result', async () => {
  const chunks = await received(SMALL, 'SWEEP');
  await diedMidIngest(chunks);
  const { uploadId } = last(chunks);

  jest.advanceTimersByTime(SWEEP_MS);
  await eventually(async () => (await uploadRow(uploadId)).status === 'done');
  expect(JSON.parse((await uploadRow(uploadId)).result!)).toEqual(cleanResult(SMALL, 'SWEEP'));
  await expectStoredAsCleanRun('SWEEP', SMALL, uploadId);

  const answer = await send(last(chunks));
  expect([answer.status, answer.body]).toEqual([200, cleanResult(SMALL, 'SWEEP')]);
  await expectStoredAsCleanRun('SWEEP', SMALL, uploadId);
});

test('an instance sweeps as it starts; closing it stops its background ingest between batches and hands the lease over, and another instance finishes the upload with exact counts', async () => {
  const chunks = await received(LARGE, 'CLOSE');
  const { uploadId } = last(chunks);
  await diedMidIngest(chunks);
  const storedByDead = await storedOf(uploadId);

  const starting = await api.start();
  // Its first sweep is under way: its lease is live, more rows are being stored.
  await eventually(async () => (await storedOf(uploadId)) > storedByDead);
  expect(Number((await uploadRow(uploadId)).lease_until_ms)).toBeGreaterThan(Date.now());
  await starting.close();

  const handedOver = await uploadRow(uploadId);
  expect(handedOver.status).toBe('processing');
  expect(Number(handedOver.lease_until_ms)).toBeGreaterThan(0);
  expect(Number(handedOver.lease_until_ms)).toBeLessThanOrEqual(Date.now());
  expect(await storedOf(uploadId)).toBeLessThan(cleanRuns.get(LARGE)!.processed);

  const answer = await send(last(chunks));
  expect([answer.status, answer.body]).toEqual([200, cleanResult(LARGE, 'CLOSE')]);
  await expectStoredAsCleanRun('CLOSE', LARGE, uploadId);
});
