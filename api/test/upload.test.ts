// api/upload/: the chunked shipment-CSV upload (docs/csv.md#shipment-upload).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../src/db/schema';
import { MAX_UPLOAD_CHUNKS, NOT_A_CSV_FILE, UPLOAD_CHUNK_BYTES, UPLOAD_TOO_LARGE } from '@veritas/shared/domain';
import { chunkData, storeChunk } from '../src/upload/repository';
import { LISTED_MAX, PACE } from '../src/upload/ingest';
import { staleUploads } from '../src/upload/lease';
import { ADMIN_USERNAME, ENGINE, build, onPostgres, uploadCsv, type Answer, type Client } from './support/build';

const api = build({
  groups: [
    { code: 'HUB1', organization: 'hub' },
    { code: 'Blr02', organization: 'hub' },
    { code: 'RC1', organization: 'RC' },
  ],
  users: [
    { username: 'incharge1', role: 'incharge', group: 'HUB1' },
    { username: 'exec1', role: 'executive', group: 'HUB1' },
    { username: 'ops1', role: 'central_ops' },
    { username: 'admin1', role: 'admin' },
    { username: 'admin2', role: 'admin' },
  ],
  signIn: {
    super_admin: ADMIN_USERNAME,
    admin: 'admin1',
    admin2: 'admin2',
    incharge: 'incharge1',
    executive: 'exec1',
    central_ops: 'ops1',
  },
});
const { as } = api;

const HEADER =
  'tracking_id,hub_code,device_type,device_brand,device_model_name,is_blindpick,blind_brand,blind_model,created_date';

let sequence = 0;
/** A tracking ID no other test uses. */
const tid = (label = 'T') => `${label}-${++sequence}-${crypto.randomBytes(3).toString('hex')}`;
const csv = (...lines: string[]) => `${lines.join('\n')}\n`;
/** A row with every column: tracking_id, hub_code, then the given values of the others. */
const row = (trackingId: string, hubCode = 'HUB1', rest = 'mobile,Samsung,Galaxy S21,false,,,2025-03-01T10:00:00Z') =>
  `${trackingId},${hubCode},${rest}`;

async function upload(
  content: string | Buffer,
  { client = as.admin!, fileName = 'shipments.csv', chunkSize = UPLOAD_CHUNK_BYTES } = {},
): Promise<Answer> {
  const answers = await uploadCsv(client, fileName, content, chunkSize);
  return answers[answers.length - 1]!;
}

/** The stored records by tracking ID, read back through api/get_status/. */
async function stored(): Promise<Map<string, any>> {
  const answer = await as.admin!.get('api/get_status/');
  expect(answer.status).toBe(200);
  return new Map(answer.body.map((record: any) => [record.tracking_id.tracking_id, record.tracking_id]));
}

function chunkFields(uploadId: string, chunkIndex: number, totalChunks: number) {
  return { upload_id: uploadId, chunk_index: chunkIndex, total_chunks: totalChunks };
}

const sendChunk = (
  client: Client,
  fields: Record<string, string | number>,
  content: string | Buffer,
  name = 'shipments.csv',
) => client.postMultipart('api/upload/', fields, { name, content });

describe('upload: chunks', () => {
  test('a file sent in several chunks, in order, is stored when its last chunk arrives; the others answer {message, chunk_index}', async () => {
    const ids = Array.from({ length: 300 }, () => tid());
    const answers = await uploadCsv(as.admin!, 'shipments.csv', csv(HEADER, ...ids.map((id) => row(id))), 2000);
    expect(answers.length).toBeGreaterThan(5);
    answers.slice(0, -1).forEach((answer, index) => {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ message: `Chunk ${index + 1} of ${answers.length} received.`, chunk_index: index });
    });
    const result = answers[answers.length - 1]!;
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ processed: 300, skipped: 0, duplicates: [], errors: [] });
    const records = await stored();
    for (const id of ids)
      expect(records.get(id)).toMatchObject({ hub_code: 'HUB1', device_type: 'mobile', device_brand: 'Samsung' });
  });

  onPostgres(
    'on PostgreSQL a chunk is kept uncompressed, so neither storing nor reading it spends time compressing (migration 013)',
    async () => {
      const ids = Array.from({ length: 2000 }, () => tid());
      const content = csv(HEADER, ...ids.map((id) => row(id)));
      const uploadId = crypto.randomUUID();
      // Not the last chunk: it stays stored as received until the upload completes.
      expect((await sendChunk(as.admin!, chunkFields(uploadId, 0, 2), content)).status).toBe(200);
      const { rows } = await sql<{ storage: string; kept: number; sent: number }>`
        select a.attstorage as storage, pg_column_size(c.data) as kept, octet_length(c.data) as sent
        from upload_chunks c, pg_attribute a
        where c.upload_id = ${uploadId} and a.attrelid = 'upload_chunks'::regclass and a.attname = 'data'`.execute(
        api.db.kysely,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.storage).toBe('e');
      // A CSV this repetitive compresses to a fraction of its size; uncompressed it is kept whole.
      expect(rows[0]!.kept).toBeGreaterThanOrEqual(rows[0]!.sent);
      expect(rows[0]!.sent).toBe(Buffer.byteLength(content));
      const result = await sendChunk(as.admin!, chunkFields(uploadId, 1, 2), `${row(tid())}\n`);
      expect(result.body).toMatchObject({ processed: 2001, skipped: 0 });
    },
  );

  test('chunks are read back byte for byte, every byte value, at any size up to 1 MiB (PostgreSQL: by COPY in binary form)', async () => {
    const uploadId = crypto.randomUUID();
    const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const chunks = [everyByte, Buffer.alloc(0), crypto.randomBytes(UPLOAD_CHUNK_BYTES), Buffer.from('\\x00,PGCOPY\n')];
    const { id: userId } = await api.db.kysely
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'admin1')
      .executeTakeFirstOrThrow();
    for (const [chunkIndex, data] of chunks.entries()) {
      await storeChunk(api.db, userId, {
        uploadId,
        chunkIndex,
        totalChunks: chunks.length,
        fileName: 'bytes.csv',
        data,
      });
    }
    const read: Buffer[] = [];
    for await (const data of chunkData(api.db, uploadId, chunks.length)) read.push(Buffer.from(data));
    expect(read.map((data) => data.toString('hex'))).toEqual(chunks.map((data) => data.toString('hex')));
    await api.db.kysely.deleteFrom('upload_chunks').where('upload_id', '=', uploadId).execute();
  });

  test('a row spanning two chunks is read whole', async () => {
    const [before, spanning, after] = [tid(), tid(), tid()];
    const content = csv(HEADER, row(before), row(spanning, 'HUB1', 'laptop,Dell,XPS 13,no,,,2025-03-02'), row(after));
    const chunkSize = content.indexOf('XPS') + 2; // the boundary falls inside "XPS 13"
    const answers = await uploadCsv(as.admin!, 'shipments.csv', content, chunkSize);
    expect(answers[answers.length - 1]!.body).toMatchObject({ processed: 3, skipped: 0 });
    expect((await stored()).get(spanning)).toMatchObject({
      device_type: 'laptop',
      device_brand: 'Dell',
      device_model_name: 'XPS 13',
    });
  });

  test('a 3-byte UTF-8 character split across chunks is decoded whole', async () => {
    const id = tid();
    const bytes = Buffer.from(csv(HEADER, row(id, 'HUB1', 'tablet,€uro Tab,Model €1,,,,')), 'utf8');
    const euro = bytes.indexOf(Buffer.from('€', 'utf8'));
    for (const cut of [euro + 1, euro + 2]) {
      const content = Buffer.from(bytes.toString('utf8').replace(id, `${id}${cut - euro}`), 'utf8');
      const answers = await uploadCsv(as.admin!, 'shipments.csv', content, cut);
      expect(answers.length).toBeGreaterThan(1);
      expect(answers[answers.length - 1]!.body).toMatchObject({ processed: 1, errors: [] });
      expect((await stored()).get(`${id}${cut - euro}`)).toMatchObject({
        device_brand: '€uro Tab',
        device_model_name: 'Model €1',
      });
    }
  });

  test('a chunk sent again is accepted and changes nothing: the first one received is kept', async () => {
    const [first, second, rest] = [tid(), tid(), tid()];
    const uploadId = crypto.randomUUID();
    const chunk0 = `${HEADER}\n${row(first)}\n`;
    expect((await sendChunk(as.admin!, chunkFields(uploadId, 0, 2), chunk0)).status).toBe(200);
    const again = await sendChunk(as.admin!, chunkFields(uploadId, 0, 2), `${HEADER}\n${row(second)}\n`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ message: 'Chunk 1 of 2 received.', chunk_index: 0 });
    const result = await sendChunk(as.admin!, chunkFields(uploadId, 1, 2), `${row(rest)}\n`);
    expect(result.body).toMatchObject({ processed: 2, skipped: 0 });
    const records = await stored();
    expect(records.has(first)).toBe(true);
    expect(records.has(second)).toBe(false);
    expect(records.has(rest)).toBe(true);
  });

  test('a missing chunk: the last chunk answers 400 naming the missing indexes, keeps what is stored, and sending them completes the upload', async () => {
    const ids = [tid(), tid(), tid(), tid()];
    const pieces = [`${HEADER}\n`, ...ids.map((id) => `${row(id)}\n`)];
    const uploadId = crypto.randomUUID();
    for (const index of [0, 2])
      expect((await sendChunk(as.admin!, chunkFields(uploadId, index, 5), pieces[index]!)).status).toBe(200);
    const incomplete = await sendChunk(as.admin!, chunkFields(uploadId, 4, 5), pieces[4]!);
    expect(incomplete.status).toBe(400);
    expect(incomplete.body).toMatchObject({
      error: 'The upload is incomplete: chunks 1, 3 are missing. Send them to complete the upload.',
      field: 'chunk_index',
      missing_chunks: [1, 3],
    });
    expect((await stored()).has(ids[0]!)).toBe(false);
    expect((await sendChunk(as.admin!, chunkFields(uploadId, 1, 5), pieces[1]!)).body).toEqual({
      message: 'Chunk 2 of 5 received.',
      chunk_index: 1,
    });
    const result = await sendChunk(as.admin!, chunkFields(uploadId, 3, 5), pieces[3]!);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ processed: 4, skipped: 0 });
  });

  test('sending the final chunk again after completion answers the same result and stores nothing', async () => {
    const ids = [tid(), tid()];
    const uploadId = crypto.randomUUID();
    await sendChunk(as.admin!, chunkFields(uploadId, 0, 2), `${HEADER}\n${row(ids[0]!)}\n`);
    const first = await sendChunk(as.admin!, chunkFields(uploadId, 1, 2), `${row(ids[1]!)}\n`);
    expect(first.body).toMatchObject({ processed: 2 });
    const countBefore = (await stored()).size;
    const again = await sendChunk(as.admin!, chunkFields(uploadId, 1, 2), `${row(tid())}\n`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await stored()).size).toBe(countBefore);
    // An earlier chunk sent again is acknowledged and changes nothing either.
    expect((await sendChunk(as.admin!, chunkFields(uploadId, 0, 2), `${HEADER}\n${row(tid())}\n`)).body).toEqual({
      message: 'Chunk 1 of 2 received.',
      chunk_index: 0,
    });
    expect((await stored()).size).toBe(countBefore);
  });

  test(`a file over the size limit (any total_chunks over ${MAX_UPLOAD_CHUNKS}, 100 MiB) is refused with 413`, async () => {
    // One over the limit, and a total past 32-bit integers (2^31): the same limit, the same answer.
    for (const totalChunks of [MAX_UPLOAD_CHUNKS + 1, 2 ** 31, `1${'0'.repeat(30)}`]) {
      const answer = await sendChunk(
        as.admin!,
        { upload_id: crypto.randomUUID(), chunk_index: 0, total_chunks: totalChunks },
        `${HEADER}\n`,
      );
      expect(answer.status).toBe(413);
      expect(answer.body).toMatchObject({ error: UPLOAD_TOO_LARGE, detail: UPLOAD_TOO_LARGE });
    }
    expect(
      (await sendChunk(as.admin!, chunkFields(crypto.randomUUID(), 0, MAX_UPLOAD_CHUNKS), `${HEADER}\n`)).status,
    ).toBe(200);
  });

  test('a chunk over 1 MiB (1,048,576 bytes) is refused with 413; one of exactly 1 MiB is accepted', async () => {
    const over = await sendChunk(
      as.admin!,
      chunkFields(crypto.randomUUID(), 0, 2),
      Buffer.alloc(UPLOAD_CHUNK_BYTES + 1, 'a'),
    );
    expect(over.status).toBe(413);
    expect(over.body.error).toBe('A chunk may be at most 1,048,576 bytes (1 MiB).');
    const exact = await sendChunk(
      as.admin!,
      chunkFields(crypto.randomUUID(), 0, 2),
      Buffer.alloc(UPLOAD_CHUNK_BYTES, 'a'),
    );
    expect(exact.status).toBe(200);
  });

  test('only CSV files are accepted: the name must end in .csv, in any case', async () => {
    const refused = await sendChunk(
      as.admin!,
      chunkFields(crypto.randomUUID(), 0, 1),
      csv(HEADER, row(tid())),
      'shipments.txt',
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: NOT_A_CSV_FILE, field: 'file' });
    const upper = await upload(csv(HEADER, row(tid())), { fileName: 'SHIPMENTS.CSV' });
    expect(upper.status).toBe(200);
    expect(upper.body.processed).toBe(1);
  });

  test('the fields are checked: upload_id a UUID, total_chunks at least 1, chunk_index from 0 to total_chunks - 1, all sent before one file part', async () => {
    const cases: [Record<string, string | number>, string][] = [
      [{ chunk_index: 0, total_chunks: 1 }, 'upload_id'],
      [chunkFields('not-a-uuid', 0, 1), 'upload_id'],
      [chunkFields(crypto.randomUUID(), 0, 0), 'total_chunks'],
      [chunkFields(crypto.randomUUID(), 0, 'two' as unknown as number), 'total_chunks'],
      [chunkFields(crypto.randomUUID(), 0, 1.5), 'total_chunks'],
      [chunkFields(crypto.randomUUID(), 0, -1), 'total_chunks'],
      [chunkFields(crypto.randomUUID(), 1, 1), 'chunk_index'],
      [chunkFields(crypto.randomUUID(), -1, 1), 'chunk_index'],
      [chunkFields(crypto.randomUUID(), 0.5, 1), 'chunk_index'],
    ];
    for (const [fields, field] of cases) {
      const answer = await sendChunk(as.admin!, fields, csv(HEADER));
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ field, error: expect.stringContaining(field), detail: expect.any(String) });
    }
    // Fields after the file are not seen in time.
    const lateForm = new FormData();
    lateForm.append('file', new Blob([csv(HEADER)]), 'late.csv');
    for (const [name, value] of Object.entries(chunkFields(crypto.randomUUID(), 0, 1)))
      lateForm.append(name, String(value));
    const late = await as.admin!.request('POST', 'api/upload/', { body: lateForm });
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({
      field: 'upload_id',
      error: 'upload_id is required (a form field sent before the file).',
    });
    // More than a few form fields.
    const crowded = await sendChunk(
      as.admin!,
      {
        ...chunkFields(crypto.randomUUID(), 0, 1),
        ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`extra${i}`, 'x'])),
      },
      csv(HEADER),
    );
    expect(crowded.status).toBe(413);
    expect(crowded.body.error).toBe('Too many form parts: send upload_id, chunk_index, total_chunks and one file.');
    // No file part.
    const form = new FormData();
    for (const [name, value] of Object.entries(chunkFields(crypto.randomUUID(), 0, 1)))
      form.append(name, String(value));
    const fileless = await as.admin!.request('POST', 'api/upload/', { body: form });
    expect(fileless.status).toBe(400);
    expect(fileless.body).toMatchObject({ field: 'file', error: 'The file part is missing.' });
    // Not multipart at all.
    const json = await as.admin!.post('api/upload/', chunkFields(crypto.randomUUID(), 0, 1));
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ field: 'file', error: 'Send the chunk as multipart/form-data.' });
  });

  test('form parts per call: nothing but the three fields and one file, and a body cut off or not multipart is a 400 (docs/csv.md#limits)', async () => {
    const tooMany = 'Too many form parts: send upload_id, chunk_index, total_chunks and one file.';
    // A field besides the three, before them.
    const extraField = new FormData();
    extraField.append('x', '1');
    for (const [name, value] of Object.entries(chunkFields(crypto.randomUUID(), 0, 1)))
      extraField.append(name, String(value));
    extraField.append('file', new Blob([csv(HEADER, row(tid()))]), 'extra.csv');
    const extra = await as.admin!.request('POST', 'api/upload/', { body: extraField });
    expect(extra.status).toBe(413);
    expect(extra.body.error).toBe(tooMany);
    // A second file, or a field after the file: the first file is not stored either.
    for (const trailing of ['file', 'field'] as const) {
      const id = tid('TRAIL');
      const form = new FormData();
      for (const [name, value] of Object.entries(chunkFields(crypto.randomUUID(), 0, 1)))
        form.append(name, String(value));
      form.append('file', new Blob([csv(HEADER, row(id))]), 'first.csv');
      if (trailing === 'file') form.append('file', new Blob([csv(HEADER, row(tid()))]), 'second.csv');
      else form.append('note', 'after the file');
      const answer = await as.admin!.request('POST', 'api/upload/', { body: form });
      expect(answer.status).toBe(413);
      expect(answer.body.error).toBe(tooMany);
      expect((await stored()).has(id)).toBe(false);
    }
    // Bodies the multipart parser cannot read: no closing boundary, no boundary at all.
    const fields = Object.entries(chunkFields(crypto.randomUUID(), 0, 1))
      .map(([name, value]) => `--b1\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('');
    const file = `--b1\r\ncontent-disposition: form-data; name="file"; filename="cut.csv"\r\ncontent-type: text/csv\r\n\r\n${csv(HEADER, row(tid()))}`;
    for (const body of [fields + file, '--b1\r\nbroken', 'hello']) {
      const answer = await fetch(`${api.url}/veritas/api/upload/`, {
        method: 'POST',
        headers: {
          cookie: as.admin!.cookieHeader('/veritas/api/upload/'),
          'x-xsrf-token': as.admin!.cookie('XSRF-TOKEN')!,
          'content-type': 'multipart/form-data; boundary=b1',
        },
        body,
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({
        field: 'file',
        error: 'The multipart body is malformed or cut off: send the three fields and the file again.',
      });
    }
  });

  test('the file name is text of at most 1,024 characters without NUL (docs/errors.md#server-error-bodies)', async () => {
    const named = (name: string) =>
      sendChunk(as.admin!, chunkFields(crypto.randomUUID(), 0, 1), csv(HEADER, row(tid())), name);
    const nul = await named('a\u0000.csv');
    expect(nul.status).toBe(400);
    expect(nul.body).toMatchObject({
      field: 'file',
      error: 'file must be text without NUL characters or unpaired surrogates.',
    });
    const long = await named(`${'x'.repeat(1021)}.csv`);
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ field: 'file', error: 'Text may be at most 1024 characters.' });
    expect((await named(`${'x'.repeat(1020)}.csv`)).status).toBe(200);
  });

  test('total_chunks must match the earlier chunks of the same upload', async () => {
    const uploadId = crypto.randomUUID();
    expect((await sendChunk(as.admin!, chunkFields(uploadId, 0, 3), `${HEADER}\n`)).status).toBe(200);
    const answer = await sendChunk(as.admin!, chunkFields(uploadId, 1, 2), `${row(tid())}\n`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      field: 'total_chunks',
      error: 'total_chunks is 2, but earlier chunks of this upload said 3.',
    });
  });

  test("an upload_id of another user's upload is refused with 403, before and after completion", async () => {
    const uploadId = crypto.randomUUID();
    await sendChunk(as.admin!, chunkFields(uploadId, 0, 2), `${HEADER}\n`);
    const before = await sendChunk(as.admin2!, chunkFields(uploadId, 1, 2), `${row(tid())}\n`);
    expect(before.status).toBe(403);
    expect(before.body.error).toBe('This upload_id belongs to an upload of another user.');
    expect((await sendChunk(as.admin!, chunkFields(uploadId, 1, 2), `${row(tid())}\n`)).body).toMatchObject({
      processed: 1,
    });
    const after = await sendChunk(as.admin2!, chunkFields(uploadId, 1, 2), `${row(tid())}\n`);
    expect(after.status).toBe(403);
  });

  test('a chunk of an upload being processed answers 409', async () => {
    const uploadId = crypto.randomUUID();
    await sendChunk(as.admin!, chunkFields(uploadId, 0, 2), `${HEADER}\n`);
    const admin = await api.db.kysely
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'admin1')
      .executeTakeFirstOrThrow();
    await api.db.kysely
      .insertInto('uploads')
      .values({
        upload_id: uploadId,
        user_id: admin.id,
        file_name: 'shipments.csv',
        total_chunks: 2,
        status: 'processing',
        result: null,
        created_at: new Date().toISOString(),
        finished_at: null,
      })
      .execute();
    const answer = await sendChunk(as.admin!, chunkFields(uploadId, 1, 2), `${row(tid())}\n`);
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ error: 'This upload is being processed.' });
  });

  test('a server error while processing answers 500 and marks the upload failed, not processing, so sending the final chunk again completes it, the rows stored before the error counted once', async () => {
    // One batch and a half of good rows (PACE): the failing row is in the second batch.
    const good = Array.from({ length: 1.5 * PACE[ENGINE].rows }, () => tid());
    const failing = tid('FAIL');
    const uploadId = crypto.randomUUID();
    await sendChunk(as.admin!, chunkFields(uploadId, 0, 2), csv(HEADER, ...good.map((id) => row(id))));
    await failInsertsOf(api.db, 'FAIL%');
    try {
      const failed = await sendChunk(as.admin!, chunkFields(uploadId, 1, 2), `${row(failing)}\n`);
      expect([failed.status, failed.body]).toEqual([500, expect.objectContaining({ error: 'Internal server error' })]);
    } finally {
      await failInsertsOf(api.db, null);
    }
    // The first batch was stored before the error; no sweep retries the upload on its own.
    expect((await stored()).has(good[0]!)).toBe(true);
    expect(await staleUploads(api.db)).not.toContain(uploadId);
    const failedUpload = await api.db.kysely
      .selectFrom('uploads')
      .select('status')
      .where('upload_id', '=', uploadId)
      .executeTakeFirst();
    expect(failedUpload?.status).toBe('failed');
    const retried = await sendChunk(as.admin!, chunkFields(uploadId, 1, 2), `${row(failing)}\n`);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ processed: good.length + 1, skipped: 0, duplicates: [] });
    const records = await stored();
    expect([...good, failing].every((id) => records.has(id))).toBe(true);
  });

  test('chunks and uploads older than 24 hours are deleted when a new upload starts', async () => {
    const old = crypto.randomUUID();
    await sendChunk(as.admin!, chunkFields(old, 0, 2), `${HEADER}\n`);
    const dayAgo = new Date(Date.now() - 24 * 60 * 60 * 1000 - 60_000).toISOString();
    await api.db.kysely
      .updateTable('upload_chunks')
      .set({ received_at: dayAgo })
      .where('upload_id', '=', old)
      .execute();
    await sendChunk(as.admin!, chunkFields(crypto.randomUUID(), 0, 2), `${HEADER}\n`);
    const left = await api.db.kysely
      .selectFrom('upload_chunks')
      .select('chunk_index')
      .where('upload_id', '=', old)
      .execute();
    expect(left).toEqual([]);
  });
});

/**
 * Uploads `content`, on PostgreSQL with each insert of a record whose tracking ID starts with SLOW
 * waiting half a second, which holds up its batch (SQLite's triggers cannot wait, and its inserts
 * run one at a time anyway).
 */
async function uploadHeldUp(content: string): Promise<Answer> {
  if (ENGINE !== 'postgres') return upload(content);
  await postgresInsertTrigger(api.db, 'slow_inserts', 'SLOW%', 'perform pg_sleep(0.5)');
  try {
    return await upload(content);
  } finally {
    await postgresInsertTrigger(api.db, 'slow_inserts', null, '');
  }
}

/**
 * On PostgreSQL, a trigger `name` running `statement` before each insert of a device record whose
 * tracking ID is like `pattern`; null drops it.
 */
async function postgresInsertTrigger(db: Db, name: string, pattern: string | null, statement: string) {
  await sql`drop trigger if exists ${sql.raw(name)} on device_records`.execute(db.kysely);
  if (!pattern) return;
  await sql`create or replace function ${sql.raw(name)}() returns trigger language plpgsql as $$ begin if new.tracking_id like ${sql.lit(pattern)} then ${sql.raw(statement)}; end if; return new; end $$`.execute(
    db.kysely,
  );
  await sql`create trigger ${sql.raw(name)} before insert on device_records for each row execute function ${sql.raw(name)}()`.execute(
    db.kysely,
  );
}

/** Makes inserts of device records whose tracking ID matches the pattern fail; null removes it. */
async function failInsertsOf(db: Db, pattern: string | null) {
  if (ENGINE === 'sqlite') {
    await sql`drop trigger if exists fail_inserts`.execute(db.kysely);
    if (pattern) {
      await sql`create trigger fail_inserts before insert on device_records when new.tracking_id like ${sql.lit(pattern)} begin select raise(abort, 'injected failure'); end`.execute(
        db.kysely,
      );
    }
    return;
  }
  await postgresInsertTrigger(db, 'fail_inserts', pattern, "raise exception 'injected failure'");
}

describe('upload: roles', () => {
  test('admin and super_admin may upload', async () => {
    for (const role of ['admin', 'super_admin']) {
      const id = tid();
      const answer = await upload(csv(HEADER, row(id)), { client: as[role]! });
      expect(answer.status).toBe(200);
      expect(answer.body.processed).toBe(1);
    }
  });

  test('incharge, central_ops and executive are refused with 403 and an error field; nothing is stored', async () => {
    for (const role of ['incharge', 'central_ops', 'executive']) {
      const id = tid();
      const answer = await upload(csv(HEADER, row(id)), { client: as[role]! });
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({
        error: 'Only admins can upload shipment files.',
        detail: 'Only admins can upload shipment files.',
      });
      expect((await stored()).has(id)).toBe(false);
    }
  });

  test('without a session the answer is 401', async () => {
    const anonymous = api.client();
    await anonymous.get('user/is_LoggedIn/'); // receives the XSRF cookie
    const answer = await upload(csv(HEADER, row(tid())), { client: anonymous });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toEqual(expect.any(String));
  });

  test('without the request-forgery header the answer is 403', async () => {
    const answer = await as.admin!.postMultipart(
      'api/upload/',
      chunkFields(crypto.randomUUID(), 0, 1),
      { name: 'a.csv', content: csv(HEADER) },
      { xsrf: false },
    );
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('CSRF token missing or incorrect.');
  });
});

/** Row numbers of the errors and the first message of each. */
const errorRows = (body: any) => body.errors.map((e: { row: number }) => e.row);

describe('upload: shipment CSV rules (docs/csv.md#columns)', () => {
  test('UTF-8 with an optional BOM: the BOM is not part of the first column name', async () => {
    const id = tid();
    const answer = await upload(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csv(HEADER, row(id)), 'utf8')]),
    );
    expect(answer.body).toMatchObject({ processed: 1, skipped: 0 });
    expect((await stored()).has(id)).toBe(true);
  });

  test('comma separated, lines ending in CRLF or LF', async () => {
    const [crlf, lf] = [tid(), tid()];
    const answer = await upload(`${HEADER}\r\n${row(crlf)}\r\n${row(lf)}\n`);
    expect(answer.body).toMatchObject({ processed: 2, skipped: 0 });
    const records = await stored();
    expect(records.get(crlf)).toMatchObject({ created_date: '2025-03-01T10:00:00.000Z' });
    expect(records.get(lf)).toMatchObject({ created_date: '2025-03-01T10:00:00.000Z' });
  });

  test('RFC 4180 quoting: quoted commas, doubled quotes and line breaks', async () => {
    const id = tid();
    const answer = await upload(csv(HEADER, `"${id}","HUB1",mobile,"Acme, Inc.","The ""Pro""\nedition",0,,,`));
    expect(answer.body).toMatchObject({ processed: 1, skipped: 0 });
    expect((await stored()).get(id)).toMatchObject({
      device_brand: 'Acme, Inc.',
      device_model_name: 'The "Pro"\nedition',
    });
  });

  test('header names are matched case-insensitively and trimmed, in any order; unknown columns are ignored', async () => {
    const id = tid();
    const answer = await upload(csv(' Hub_Code ,NOTES,TRACKING_ID,Device_Brand', `HUB1,anything at all,${id},Nokia`));
    expect(answer.body).toMatchObject({ processed: 1, skipped: 0 });
    expect((await stored()).get(id)).toMatchObject({
      hub_code: 'HUB1',
      device_brand: 'Nokia',
      device_type: null,
      is_Blindpick: false,
    });
  });

  test('a header lacking tracking_id or hub_code refuses the whole file with 400, storing nothing', async () => {
    const id = tid();
    for (const [header, missing] of [
      ['hub_code,device_type', 'tracking_id'],
      ['tracking_id,device_type', 'hub_code'],
      ['device_type', 'tracking_id and hub_code'],
    ]) {
      const answer = await upload(csv(header!, `${id},HUB1`));
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatch(new RegExp(`lacks the required columns? ${missing}\\.$`));
    }
    expect((await stored()).has(id)).toBe(false);
  });

  test('a header repeating a column refuses the whole file with 400', async () => {
    const id = tid();
    const answer = await upload(csv('tracking_id,hub_code,Hub_Code', `${id},HUB1,HUB1`));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: 'The header row names the column hub_code more than once.',
      field: 'file',
    });
    expect((await stored()).has(id)).toBe(false);
  });

  test('tracking_id: required, 1–64 letters, digits, "-" and "_"', async () => {
    const longest = `${tid('L')}_`.padEnd(64, 'x');
    const answer = await upload(
      csv('tracking_id,hub_code', `,HUB1`, `${longest},HUB1`, `${longest}y,HUB1`, `bad id,HUB1`, `bad/id,HUB1`),
    );
    expect(answer.body.processed).toBe(1);
    expect(answer.body.errors).toEqual([
      { row: 1, errors: ['tracking_id is required'] },
      { row: 3, errors: [`tracking_id '${`${longest}y`.slice(0, 40)}…' is longer than 64 characters`] },
      { row: 4, errors: ["tracking_id 'bad id' may only contain letters, digits, '-' and '_'"] },
      { row: 5, errors: ["tracking_id 'bad/id' may only contain letters, digits, '-' and '_'"] },
    ]);
    expect((await stored()).has(longest)).toBe(true);
  });

  test('hub_code: required, the code of an existing hub group, matched case-insensitively and stored as the group spells it', async () => {
    const [lower, mixed] = [tid(), tid()];
    const answer = await upload(
      csv('tracking_id,hub_code', `${tid()},`, `${tid()},XYZ99`, `${tid()},RC1`, `${lower},hub1`, `${mixed},BLR02`),
    );
    expect(answer.body.processed).toBe(2);
    expect(answer.body.errors).toEqual([
      { row: 1, errors: ['hub_code is required'] },
      { row: 2, errors: ["hub_code 'XYZ99' is not a hub"] },
      { row: 3, errors: ["hub_code 'RC1' is not a hub"] },
    ]);
    const records = await stored();
    expect(records.get(lower).hub_code).toBe('HUB1');
    expect(records.get(mixed).hub_code).toBe('Blr02');
  });

  test('device_type: smarttv, laptop, tablet, mobile, truewireless or empty, in any case, stored lower-case (empty as null)', async () => {
    const ids = ['SmartTV', 'LAPTOP', 'tablet', 'Mobile', 'TrueWireless', ''].map((type) => [tid(), type] as const);
    const answer = await upload(
      csv('tracking_id,hub_code,device_type', ...ids.map(([id, type]) => `${id},HUB1,${type}`), `${tid()},HUB1,phone`),
    );
    expect(answer.body.processed).toBe(6);
    expect(answer.body.errors).toEqual([
      {
        row: 7,
        errors: ["device_type 'phone' must be one of smarttv, laptop, tablet, mobile, truewireless (or empty)"],
      },
    ]);
    const records = await stored();
    for (const [id, type] of ids) expect(records.get(id).device_type).toBe(type ? type.toLowerCase() : null);
  });

  test('device_brand, device_model_name, blind_brand, blind_model: optional text of at most 128 characters, kept exactly as sent (RFC 4180), empty stored as null', async () => {
    const [full, spaces, quoted] = [tid(), tid(), tid()];
    const longest = 'é'.repeat(128);
    const answer = await upload(
      csv(
        'tracking_id,hub_code,device_brand,device_model_name,blind_brand,blind_model',
        `${full},HUB1,  Sony  ,${longest},Generic, Box `,
        `${spaces},HUB1,,  ,"",`,
        `${quoted},HUB1," leading","nl\n"," ","two\r\nlines "`,
        `${tid()},HUB1,${' '.repeat(129)},m,${'c'.repeat(200)},x`,
      ),
    );
    expect(answer.body.processed).toBe(3);
    expect(answer.body.errors).toEqual([
      {
        row: 4,
        errors: ['device_brand is longer than 128 characters (129)', 'blind_brand is longer than 128 characters (200)'],
      },
    ]);
    const records = await stored();
    expect(records.get(full)).toMatchObject({
      device_brand: '  Sony  ',
      device_model_name: longest,
      Blind_brand: 'Generic',
      Blind_model: ' Box ',
    });
    expect(records.get(spaces)).toMatchObject({
      device_brand: null,
      device_model_name: '  ',
      Blind_brand: null,
      Blind_model: null,
    });
    expect(records.get(quoted)).toMatchObject({
      device_brand: ' leading',
      device_model_name: 'nl\n',
      Blind_brand: ' ',
      Blind_model: 'two\r\nlines ',
    });
  });

  test('tracking_id, hub_code, device_type, is_blindpick and created_date are read without the spaces around them', async () => {
    const id = tid();
    const answer = await upload(csv(HEADER, ` ${id} , hub1 , Laptop ,Dell,XPS, yes ,,,"  2025-03-01T10:00:00Z "`));
    expect(answer.body).toMatchObject({ processed: 1, errors: [] });
    expect((await stored()).get(id)).toMatchObject({
      hub_code: 'HUB1',
      device_type: 'laptop',
      is_Blindpick: true,
      created_date: '2025-03-01T10:00:00.000Z',
    });
  });

  test('a cell holding U+FFFD, sent as valid UTF-8 (EF BF BD), is stored as sent', async () => {
    const id = tid();
    const answer = await upload(
      Buffer.concat([
        Buffer.from(`tracking_id,hub_code,device_model_name\n${id},HUB1,37`),
        Buffer.from([0xef, 0xbf, 0xbd]),
        Buffer.from(`36'N\n`),
      ]),
    );
    expect(answer.body).toMatchObject({ processed: 1, errors: [] });
    expect((await stored()).get(id).device_model_name).toBe("37\uFFFD36'N");
  });

  test('is_blindpick: true/false/1/0/yes/no in any case; empty means false', async () => {
    const values = ['true', 'FALSE', '1', '0', 'Yes', 'no', ''].map((value) => [tid(), value] as const);
    const answer = await upload(
      csv(
        'tracking_id,hub_code,is_blindpick',
        ...values.map(([id, value]) => `${id},HUB1,${value}`),
        `${tid()},HUB1,maybe`,
      ),
    );
    expect(answer.body.processed).toBe(7);
    expect(answer.body.errors).toEqual([
      { row: 8, errors: ["is_blindpick 'maybe' must be true, false, 1, 0, yes or no (or empty)"] },
    ]);
    const records = await stored();
    for (const [id, value] of values)
      expect(records.get(id).is_Blindpick).toBe(['true', '1', 'yes'].includes(value.toLowerCase()));
  });

  test('created_date: an ISO 8601 date (server-local midnight) or date-time (server-local, or as its Z/offset says); impossible dates refused; empty means the time of upload', async () => {
    const cases = [
      ['2025-03-05', new Date(2025, 2, 5).toISOString()],
      ['2024-02-29', new Date(2024, 1, 29).toISOString()],
      ['2025-03-05T14:30', new Date(2025, 2, 5, 14, 30).toISOString()],
      ['2025-03-05T14:30:15.250', new Date(2025, 2, 5, 14, 30, 15, 250).toISOString()],
      ['2025-03-05T14:30:15Z', '2025-03-05T14:30:15.000Z'],
      ['2025-03-05T14:30:15+05:30', '2025-03-05T09:00:15.000Z'],
      ['2025-03-05T01:00:00-0200', '2025-03-05T03:00:00.000Z'],
    ].map(([text, iso]) => [tid(), text!, iso!] as const);
    const bad = ['2025-02-30', '2025-13-01', '2025-03-05T24:00', '05/03/2025', '2025-3-5', 'yesterday'];
    const empty = tid();
    const started = Date.now();
    const answer = await upload(
      csv(
        'tracking_id,hub_code,created_date',
        ...cases.map(([id, text]) => `${id},HUB1,${text}`),
        `${empty},HUB1,`,
        ...bad.map((text) => `${tid()},HUB1,${text}`),
      ),
    );
    expect(answer.body.processed).toBe(cases.length + 1);
    expect(answer.body.errors).toEqual(
      bad.map((text, i) => ({
        row: cases.length + 2 + i,
        errors: [`created_date '${text}' is not a valid ISO 8601 date or date-time`],
      })),
    );
    const records = await stored();
    for (const [id, , iso] of cases) expect(records.get(id).created_date).toBe(iso);
    const uploadTime = Date.parse(records.get(empty).created_date);
    expect(uploadTime).toBeGreaterThanOrEqual(started - 1000);
    expect(uploadTime).toBeLessThanOrEqual(Date.now() + 1000);
  });

  test('a row breaking several rules is reported once with all its messages, each naming its column', async () => {
    const answer = await upload(csv(HEADER, `bad id,XYZ99,phone,${'x'.repeat(129)},,perhaps,,,2025-02-30`));
    expect(answer.body.errors).toEqual([
      {
        row: 1,
        errors: [
          "tracking_id 'bad id' may only contain letters, digits, '-' and '_'",
          "hub_code 'XYZ99' is not a hub",
          "device_type 'phone' must be one of smarttv, laptop, tablet, mobile, truewireless (or empty)",
          'device_brand is longer than 128 characters (129)',
          "is_blindpick 'perhaps' must be true, false, 1, 0, yes or no (or empty)",
          "created_date '2025-02-30' is not a valid ISO 8601 date or date-time",
        ],
      },
    ]);
    expect(answer.body).toMatchObject({ processed: 0, skipped: 1, errors_total: 1 });
  });

  test('a tracking ID already stored goes to duplicates with its row, and the stored record is unchanged', async () => {
    const id = tid();
    await upload(csv(HEADER, row(id, 'HUB1', 'mobile,First,,,,,')));
    const fresh = tid();
    const answer = await upload(csv(HEADER, row(fresh), row(id, 'HUB1', 'laptop,Second,,,,,')));
    expect(answer.body).toMatchObject({
      processed: 1,
      skipped: 1,
      duplicates: [{ row: 2, tracking_id: id }],
      duplicates_total: 1,
    });
    expect((await stored()).get(id)).toMatchObject({ device_type: 'mobile', device_brand: 'First' });
  });

  test('tracking IDs already stored between new rows of one batch: every new row is counted as stored, and into the pick list count, once', async () => {
    const [first, second] = [tid(), tid()];
    await upload(csv(HEADER, row(first), row(second)));
    const fresh = [tid(), tid(), tid()];
    const countBefore = (await as.admin!.get('api/devices/count/')).body.total;
    const answer = await upload(csv(HEADER, row(fresh[0]!), row(first), row(fresh[1]!), row(second), row(fresh[2]!)));
    expect(answer.body).toMatchObject({
      processed: 3,
      duplicates: [
        { row: 2, tracking_id: first },
        { row: 4, tracking_id: second },
      ],
    });
    const records = await stored();
    for (const id of fresh) expect(records.has(id)).toBe(true);
    expect((await as.admin!.get('api/devices/count/')).body.total).toBe(countBefore + 3);
  });

  test('a tracking ID repeated in the same file: the first is stored, the repeats go to duplicates', async () => {
    const [a, b] = [tid(), tid()];
    const answer = await upload(
      csv(HEADER, row(a, 'HUB1', 'mobile,First,,,,,'), row(b), row(a), row(a, 'HUB1', 'laptop,Third,,,,,')),
    );
    expect(answer.body).toMatchObject({
      processed: 2,
      skipped: 2,
      duplicates: [
        { row: 3, tracking_id: a },
        { row: 4, tracking_id: a },
      ],
    });
    expect((await stored()).get(a)).toMatchObject({ device_brand: 'First' });
  });

  test('a tracking ID repeated in a later batch, while the batch of its first row is still being stored: the first is stored, the repeats go to duplicates', async () => {
    // Batches of PACE rows (src/upload/ingest.ts), several inserted at once on PostgreSQL, where the
    // first batch is held up: the second batch's insert reaches its first row before the first
    // reaches row 2.
    const size = PACE[ENGINE].rows;
    const ids = Array.from({ length: 3 * size }, () => tid());
    ids[0] = tid('SLOW');
    const [a, b] = [ids[1]!, ids[size - 1]!];
    ids[size] = a;
    ids[2 * size] = b;
    ids[2.5 * size - 1] = a;
    const answer = await uploadHeldUp(csv(HEADER, ...ids.map((id, i) => row(id, 'HUB1', `mobile,Row ${i + 1},,,,,`))));
    expect(answer.body).toMatchObject({
      processed: 3 * size - 3,
      skipped: 3,
      duplicates: [
        { row: size + 1, tracking_id: a },
        { row: 2 * size + 1, tracking_id: b },
        { row: 2.5 * size, tracking_id: a },
      ],
      duplicates_total: 3,
    });
    const records = await stored();
    expect(records.get(a)).toMatchObject({ device_brand: 'Row 2' });
    expect(records.get(b)).toMatchObject({ device_brand: `Row ${size}` });
  });

  test('batches are counted in file order whichever insert ends first: duplicates listed by row, counts exact', async () => {
    const existing = [tid(), tid(), tid()];
    await upload(csv(HEADER, ...existing.map((id) => row(id))));
    const size = PACE[ENGINE].rows;
    const ids = Array.from({ length: 4 * size }, () => tid());
    // On PostgreSQL (several batches at once) the first batch is held up, so the inserts started
    // alongside it end first.
    ids[0] = tid('SLOW');
    ids[9] = existing[0]!;
    ids[size + 9] = existing[1]!;
    ids[size + 19] = existing[2]!;
    const answer = await uploadHeldUp(csv(HEADER, ...ids.map((id) => row(id))));
    expect(answer.body).toMatchObject({
      processed: 4 * size - 3,
      skipped: 3,
      duplicates: [
        { row: 10, tracking_id: existing[0] },
        { row: size + 10, tracking_id: existing[1] },
        { row: size + 20, tracking_id: existing[2] },
      ],
      duplicates_total: 3,
    });
    const counts = (await api.db.kysely.selectFrom('events').select(['id', 'data']).orderBy('id').execute())
      .map((event) => JSON.parse(event.data))
      .filter((data) => data.action === 'uploaded')
      .map((data) => data.count);
    // One event per batch stored, in commit order: the batches inserted alongside the held-up
    // first one (none on SQLite) before it, in either order, then it, then the next.
    const storedByBatch = [size - 1, size - 2, size, size];
    const { atOnce } = PACE[ENGINE];
    const byCount = (a: number, b: number) => a - b;
    const events = counts.slice(-4);
    expect(events.slice(0, atOnce - 1).sort(byCount)).toEqual(storedByBatch.slice(1, atOnce).sort(byCount));
    expect(events.slice(atOnce - 1)).toEqual([storedByBatch[0], ...storedByBatch.slice(atOnce)]);
  });

  test('after a batch holding tracking IDs already stored, the next batch of new ones is stored whole; text cells of every batch are stored exactly as sent', async () => {
    // On PostgreSQL a batch goes by COPY, and one holding a stored tracking ID through the insert
    // that skips it, as do the batches after it until one holds none (src/upload/store-records.ts).
    const existing = [tid(), tid()];
    await upload(csv(HEADER, ...existing.map((id) => row(id))));
    const size = PACE[ENGINE].rows;
    const ids = Array.from({ length: 5 * size }, () => tid());
    ids[5] = existing[0]!;
    ids[3 * size + 5] = existing[1]!;
    const model = 'back\\slash\ttab "quoted"';
    const answer = await upload(
      csv(HEADER, ...ids.map((id) => row(id, 'HUB1', `mobile,Brand,"${model.replace(/"/g, '""')}",false,,,`))),
    );
    expect(answer.body).toMatchObject({
      processed: 5 * size - 2,
      duplicates: [
        { row: 6, tracking_id: existing[0] },
        { row: 3 * size + 6, tracking_id: existing[1] },
      ],
    });
    const records = await stored();
    for (const [i, id] of ids.entries()) {
      if (i === 5 || i === 3 * size + 5) continue;
      expect(records.get(id)).toMatchObject({ device_brand: 'Brand', device_model_name: model });
    }
  });

  test('a repeat of a row that broke a rule is not a duplicate: the valid one is stored', async () => {
    const id = tid();
    const answer = await upload(csv('tracking_id,hub_code', `${id},XYZ99`, `${id},HUB1`));
    expect(answer.body).toMatchObject({
      processed: 1,
      errors: [{ row: 1, errors: ["hub_code 'XYZ99' is not a hub"] }],
      duplicates: [],
    });
  });

  test('rows are numbered from 1 after the header, counting non-blank records only: blank lines and empty-cell lines are ignored', async () => {
    const answer = await upload(
      `\n${HEADER}\n\n${row(tid())}\n,,,,,,,,\n   \n${row(tid(), 'NOPE')}\r\n\r\n${row(tid())}\n\n`,
    );
    expect(answer.body).toMatchObject({
      processed: 2,
      skipped: 1,
      errors: [{ row: 2, errors: ["hub_code 'NOPE' is not a hub"] }],
    });
  });
});

describe('upload: result', () => {
  test('the result is {message, processed, skipped, duplicates, errors, duplicates_total, errors_total}', async () => {
    const dup = tid();
    await upload(csv(HEADER, row(dup)));
    const answer = await upload(
      csv(HEADER, ...Array.from({ length: 998 }, () => row(tid())), row(dup), row(tid(), 'NOPE')),
    );
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual([
      'duplicates',
      'duplicates_total',
      'errors',
      'errors_total',
      'message',
      'processed',
      'skipped',
    ]);
    expect(answer.body).toEqual({
      message: 'Upload complete: 998 rows stored, 2 skipped.',
      processed: 998,
      skipped: 2,
      duplicates: [{ row: 999, tracking_id: dup }],
      errors: [{ row: 1000, errors: ["hub_code 'NOPE' is not a hub"] }],
      duplicates_total: 1,
      errors_total: 1,
    });
  });

  test(`duplicates and errors list their first ${LISTED_MAX} entries each; the totals are exact`, async () => {
    const ids = Array.from({ length: 1500 }, () => tid());
    const first = await upload(
      csv(HEADER, ...ids.map((id) => row(id)), ...Array.from({ length: 1500 }, () => row(tid(), 'NOPE'))),
    );
    expect(first.body).toMatchObject({ processed: 1500, skipped: 1500, errors_total: 1500, duplicates_total: 0 });
    expect(first.body.errors).toHaveLength(LISTED_MAX);
    expect(errorRows(first.body)).toEqual(Array.from({ length: LISTED_MAX }, (_, i) => 1501 + i));

    const again = await upload(csv(HEADER, ...ids.map((id) => row(id))));
    expect(again.body).toMatchObject({ processed: 0, skipped: 1500, duplicates_total: 1500, errors_total: 0 });
    expect(again.body.message).toBe('Upload complete: 0 rows stored, 1500 skipped.');
    expect(again.body.duplicates).toHaveLength(LISTED_MAX);
    expect(again.body.duplicates).toEqual(ids.slice(0, LISTED_MAX).map((id, i) => ({ row: i + 1, tracking_id: id })));
  });

  test('a file with only a header answers 200 with processed 0 and says there were no data rows', async () => {
    const answer = await upload(`${HEADER}\r\n\r\n`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      message: 'Upload complete: the file has no data rows.',
      processed: 0,
      skipped: 0,
      duplicates: [],
      errors: [],
      duplicates_total: 0,
      errors_total: 0,
    });
  });

  test('an empty file (0 bytes, or only a BOM) is refused with 400 The file is empty', async () => {
    for (const content of [Buffer.alloc(0), Buffer.from([0xef, 0xbb, 0xbf])]) {
      const answer = await upload(content);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: 'The file is empty', field: 'file' });
    }
    const blank = await upload('\n\r\n  \n');
    expect(blank.status).toBe(400);
    expect(blank.body.error).toBe('The file has no header row: it holds only blank lines.');
  });
});

describe('upload: malformed CSV corpus', () => {
  /**
   * Uploads the lines (chunked small, so rows cross chunk boundaries too) and checks that exactly the
   * `good` tracking IDs are stored and exactly the `bad` row numbers are reported as errors.
   */
  async function expectOutcome(content: string | Buffer, good: string[], bad: number[], chunkSize = 64) {
    const answer = await upload(content, { chunkSize });
    expect(answer.status).toBe(200);
    expect(errorRows(answer.body)).toEqual(bad);
    expect(answer.body).toMatchObject({ processed: good.length, errors_total: bad.length, duplicates_total: 0 });
    const records = await stored();
    for (const id of good) expect(records.has(id)).toBe(true);
    return answer.body;
  }

  test('unbalanced quotes: the bad row is reported and every good row after it is stored', async () => {
    const ids = Array.from({ length: 7 }, () => tid());
    const body = await expectOutcome(
      csv(
        'tracking_id,hub_code,device_brand',
        `${ids[0]},HUB1,"Acme`, // opens a quote that never closes properly
        `${ids[1]},HUB1,Nokia`,
        `${ids[2]},HUB1,"Sam"sung`, // text after a closing quote
        `${ids[3]},HUB1,LG`,
        `${ids[4]},HUB1,"ok"`,
        `${ids[5]},HUB1,Bad"quote,extra`, // a quote inside an unquoted field is a character: 4 columns
        `${ids[6]},HUB1,"unclosed at the end`,
      ),
      [ids[1]!, ids[3]!, ids[4]!],
      [1, 3, 6, 7],
    );
    expect(body.errors[0].errors[0]).toMatch(/^Invalid quoting/);
    expect(body.errors[2].errors).toEqual(['Expected 3 columns, found 4']);
  });

  test('a wrong column count is an error row: Expected N columns, found M', async () => {
    const ids = [tid(), tid(), tid()];
    const body = await expectOutcome(
      csv('tracking_id,hub_code,device_brand', `${ids[0]},HUB1`, `${ids[1]},HUB1,Sony,extra`, `${ids[2]},HUB1,Sony`),
      [ids[2]!],
      [1, 2],
    );
    expect(body.errors).toEqual([
      { row: 1, errors: ['Expected 3 columns, found 2'] },
      { row: 2, errors: ['Expected 3 columns, found 4'] },
    ]);
  });

  test('BOM and CRLF together, in small chunks', async () => {
    const ids = [tid(), tid()];
    const content = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(`${HEADER}\r\n${row(ids[0]!)}\r\n${row(ids[1]!)}\r\n`),
    ]);
    await expectOutcome(content, ids, [], 7);
  });

  test('bytes that are not UTF-8 on a row cut by a chunk boundary make that row an error; the rows before and after it, in both chunks, are stored', async () => {
    for (const afterBadByte of [false, true]) {
      const ids = [tid(), tid(), tid(), tid(), tid()];
      const before = Buffer.from(
        `tracking_id,hub_code,device_brand\n${ids[0]},HUB1,ok\n${ids[1]},HUB1,ok\n${ids[2]},HUB1,"caf`,
      );
      const after = Buffer.from(` au lait\nsecond line"\n${ids[3]},HUB1,ok\n${ids[4]},HUB1,ok\n`);
      const content = Buffer.concat([before, Buffer.from([0xe9]), after]); // é in Latin-1
      // The boundary falls just before, or just after, the bad byte.
      const answers = await uploadCsv(as.admin!, 'shipments.csv', content, before.length + (afterBadByte ? 1 : 0));
      expect(answers).toHaveLength(2);
      expect(answers[1]!.body).toMatchObject({
        processed: 4,
        errors: [{ row: 3, errors: ['Row contains bytes that are not valid UTF-8'] }],
      });
      const records = await stored();
      expect([0, 1, 3, 4].map((i) => records.get(ids[i]!)?.device_brand)).toEqual(['ok', 'ok', 'ok', 'ok']);
      expect(records.has(ids[2]!)).toBe(false);
    }
  });

  test('a NUL character in a field makes that row an error on either engine; the other rows are stored', async () => {
    const ids = [tid(), tid(), tid()];
    const content = Buffer.from(
      `tracking_id,hub_code,device_brand\n${ids[0]},HUB1,ok\n${ids[1]},HUB1,De\u0000ll\n${ids[2]},HUB1,ok\n`,
    );
    const answers = await uploadCsv(as.admin!, 'shipments.csv', content);
    expect(answers.at(-1)!.body).toMatchObject({
      processed: 2,
      errors: [{ row: 2, errors: ['Row contains a NUL character'] }],
    });
    const records = await stored();
    expect([records.get(ids[0]!)?.device_brand, records.get(ids[2]!)?.device_brand]).toEqual(['ok', 'ok']);
    expect(records.has(ids[1]!)).toBe(false);
  });

  test('bytes that are not UTF-8 make an error row; the other rows are stored', async () => {
    const ids = [tid(), tid(), tid()];
    const content = Buffer.concat([
      Buffer.from(`tracking_id,hub_code,device_brand\n${ids[0]},HUB1,ok\n${ids[1]},HUB1,caf`),
      Buffer.from([0xe9]), // é in Latin-1
      Buffer.from(`\n${ids[2]},HUB1,fine\n`),
    ]);
    const body = await expectOutcome(content, [ids[0]!, ids[2]!], [2]);
    expect(body.errors).toEqual([{ row: 2, errors: ['Row contains bytes that are not valid UTF-8'] }]);
  });

  test('10,000-character cells parse: too long for a known column (an error), ignored in an unknown one (stored)', async () => {
    const ids = [tid(), tid()];
    const big = 'z'.repeat(10_000);
    const body = await expectOutcome(
      csv('tracking_id,hub_code,device_brand,notes', `${ids[0]},HUB1,${big},short`, `${ids[1]},HUB1,Sony,"${big}"`),
      [ids[1]!],
      [1],
      4096,
    );
    expect(body.errors).toEqual([{ row: 1, errors: ['device_brand is longer than 128 characters (10000)'] }]);
  });

  test('a mixed corpus: every valid row stored, every invalid row reported with its row number', async () => {
    const ids = Array.from({ length: 12 }, () => tid());
    const lines = [
      HEADER,
      row(ids[0]!), // 1 ok
      `${ids[1]},HUB1,"mobile`, // 2 unbalanced quote
      row(ids[2]!), // 3 ok (swallowed by the quote, read again)
      '', // blank
      row(ids[3]!, 'XYZ99'), // 4 not a hub
      `${ids[4]},HUB1`, // 5 too few columns
      row(ids[5]!, 'hub1', 'SMARTTV,"LG, Inc.","OLED ""C3""",YES,,,2025-01-31'), // 6 ok
      ',,,,,,,,', // blank
      row(ids[6]!, 'HUB1', 'mobile,,,,,,2025-02-29'), // 7 impossible date
      row(ids[7]!), // 8 ok
      row(ids[8]!, 'HUB1', 'tablet,"x"y,,,,,,'), // 9 text after a closing quote
      row(ids[9]!), // 10 ok
    ];
    await expectOutcome(
      `${lines.join('\r\n')}\r\n`,
      [ids[0]!, ids[2]!, ids[5]!, ids[7]!, ids[9]!],
      [2, 4, 5, 7, 9],
      50,
    );
    const records = await stored();
    expect(records.get(ids[5]!)).toMatchObject({
      hub_code: 'HUB1',
      device_type: 'smarttv',
      device_brand: 'LG, Inc.',
      device_model_name: 'OLED "C3"',
      is_Blindpick: true,
    });
    for (const id of [ids[1], ids[3], ids[4], ids[6], ids[8]]) expect(records.has(id!)).toBe(false);
  });
});

describe('upload: the csv-spectrum corpus, stored byte for byte', () => {
  const spectrum = path.dirname(require.resolve('csv-spectrum/package.json'));
  const cases = fs.readdirSync(path.join(spectrum, 'csvs')).map((file) => path.basename(file, '.csv'));
  const TEXT_COLUMNS = ['device_brand', 'device_model_name', 'blind_brand', 'blind_model'];
  /** The text columns as get_status names them. */
  const ANSWERED_AS = ['device_brand', 'device_model_name', 'Blind_brand', 'Blind_model'];
  // csv-spectrum 2.0.0's JSON of this case gives another phone number than its CSV holds.
  const ERRATA: Record<string, Record<string, string>> = {
    location_coordinates: { 'Contact Phone Number': '2095257564' },
  };
  const QUOTE = 0x22;

  /**
   * The case's bytes with its header replaced by ours and `${tracking_id},HUB1,` put before each
   * record; its data cells are left as they are. A record starts on a line before which the data
   * holds an even number of quotes (true of every case: none has a quote in an unquoted cell that
   * is left open).
   */
  function shipment(data: Buffer, header: string, ids: string[]): Buffer {
    const parts: Buffer[] = [Buffer.from(header)];
    let quotes = 0;
    let record = 0;
    for (let start = 0; start < data.length;) {
      const newline = data.indexOf(0x0a, start);
      const line = data.subarray(start, newline === -1 ? data.length : newline + 1);
      if (quotes % 2 === 0) parts.push(Buffer.from(`${ids[record++]},HUB1,`));
      parts.push(line);
      for (const byte of line) if (byte === QUOTE) quotes++;
      start += line.length;
    }
    expect(record).toBe(ids.length);
    return Buffer.concat(parts);
  }

  test.each(cases)('%s', async (name) => {
    const bytes = fs.readFileSync(path.join(spectrum, 'csvs', `${name}.csv`));
    const json: unknown = JSON.parse(fs.readFileSync(path.join(spectrum, 'json', `${name}.json`), 'utf8'));
    const expected = (Array.isArray(json) ? json : [json]).map((record: Record<string, string>) => ({
      ...record,
      ...ERRATA[name],
    }));
    const headerEnd = bytes.indexOf(0x0a) + 1;
    const headerLine = bytes.subarray(0, headerEnd).toString('utf8');
    const names = headerLine.trimEnd().split(',');
    expect(names).toEqual(Object.keys(expected[0]!));
    const lineEnd = headerLine.endsWith('\r\n') ? '\r\n' : '\n';

    // Four columns at a time onto the four text columns; the others are ignored.
    for (let first = 0; first < names.length; first += TEXT_COLUMNS.length) {
      const header =
        [
          'tracking_id',
          'hub_code',
          ...names.map((_, column) => TEXT_COLUMNS[column - first] ?? `ignored_${column}`),
        ].join(',') + lineEnd;
      for (const chunkSize of [5, UPLOAD_CHUNK_BYTES]) {
        const ids = expected.map(() => tid(name.replace(/_/g, '-')));
        const answer = await upload(shipment(bytes.subarray(headerEnd), header, ids), { chunkSize });
        expect(answer.body).toMatchObject({ processed: expected.length, errors: [], duplicates: [] });
        const records = await stored();
        ids.forEach((id, row) => {
          const columns = names.slice(first, first + TEXT_COLUMNS.length);
          const storedCells = columns.map((_, i) => records.get(id)[ANSWERED_AS[i]!]);
          expect(storedCells).toEqual(columns.map((column) => expected[row]![column] || null));
        });
      }
    }
  });
});
