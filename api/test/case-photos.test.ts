// A case's photos (src/cases/photos.ts, photo-routes.ts) over real HTTP: the types recognised from
// the bytes, the limits, the metadata removed (EXIF with GPS, XMP, PNG text, WebP EXIF), the
// answer's headers, who may add and read, the mobile app's photo at the doorstep, hostile input,
// and the timeline and audit entries.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import sharp from 'sharp';
import { MAX_CASE_PHOTO_BYTES, MAX_CASE_PHOTOS } from '@veritas/shared/domain';
import { PASSWORD, build, uploadCsv, type Client } from './support/build';

const api = build({
  groups: [
    { code: 'HUB1', organization: 'hub' },
    { code: 'HUB2', organization: 'hub' },
  ],
  users: [
    { username: 'op1', role: 'operators', group: 'HUB1' },
    { username: 'op2', role: 'operators', group: 'HUB1' },
    { username: 'exec1', role: 'executive', group: 'HUB1' },
    { username: 'exec2', role: 'executive', group: 'HUB2' },
    { username: 'admin1', role: 'admin' },
  ],
  signIn: { admin: 'admin1', exec1: 'exec1', exec2: 'exec2' },
});
const { as } = api;
const tokens: Record<string, string> = {};

const HEADER =
  'tracking_id,hub_code,device_type,device_brand,device_model_name,is_blindpick,blind_brand,blind_model,created_date';
let sequence = 0;
const tid = () => `PHOTO-${++sequence}-${crypto.randomBytes(3).toString('hex')}`;

async function appCall(path: string, init: RequestInit, token?: string) {
  const response = await fetch(`${api.url}/veritas/app/${path}`, {
    ...init,
    headers: { ...(init.headers as Record<string, string>), ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: response.status, body: await bodyOf(response) };
}

async function bodyOf(response: Response): Promise<any> {
  const text = await response.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

/** A fresh MAC of Samsung's first MA-L block: the manufacturer expected, so the model decides. */
async function samsungMac(): Promise<string> {
  const row = await api.db.kysely
    .selectFrom('oui_prefixes as p')
    .innerJoin('manufacturers as m', 'm.id', 'p.manufacturer_id')
    .select('p.prefix')
    .where('m.manufacturer', '=', 'Samsung Electronics Co.,Ltd')
    .where(sql<boolean>`length(p.prefix) = 6`)
    .orderBy('p.prefix')
    .executeTakeFirstOrThrow();
  const hex = row.prefix + crypto.randomBytes(3).toString('hex').toUpperCase();
  return hex.match(/../g)!.join(':');
}

/** A shipped item of HUB1 submitted by `operator` with another model: E007 opens its case. */
async function flaggedItem(operator = 'op1'): Promise<{ trackingId: string; caseId: number }> {
  const trackingId = tid();
  const answers = await uploadCsv(
    as.admin!,
    'shipment.csv',
    `${HEADER}\n${trackingId},HUB1,mobile,Samsung,Galaxy S23,false,,,\n`,
  );
  expect(answers.at(-1)!.body).toMatchObject({ processed: 1 });
  const submitted = await appCall(
    'scan/submit/',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        tracking_id: trackingId,
        mac_address: await samsungMac(),
        model: 'Galaxy S23 Ultra',
        hardware_id: 'HW-1',
      }),
    },
    tokens[operator],
  );
  expect(submitted.body.result).toBe('E007');
  const row = await api.db.kysely
    .selectFrom('cases')
    .select(['id', 'queue', 'state'])
    .where('tracking_id', '=', trackingId)
    .executeTakeFirstOrThrow();
  expect(row).toMatchObject({ queue: 'HUB1', state: 'open' });
  return { trackingId, caseId: row.id };
}

/** A POST of raw bytes as the console sends it: its cookies and XSRF header. */
async function postRaw(client: Client, path: string, body: Buffer | string | undefined, type?: string) {
  const cookie = client.cookieHeader();
  const response = await fetch(`${api.url}/veritas/${path}`, {
    method: 'POST',
    headers: {
      cookie,
      'x-xsrf-token': client.cookie('XSRF-TOKEN')!,
      ...(type ? { 'content-type': type } : {}),
    },
    body,
  });
  return { status: response.status, body: await bodyOf(response) };
}
const addPhoto = (client: Client, caseId: number | string, bytes: Buffer | string | undefined, type = 'image/jpeg') =>
  postRaw(client, `api/cases/${caseId}/photos/`, bytes, type);

async function getPhoto(client: Client, url: string) {
  const cookie = client.cookieHeader();
  const response = await fetch(`${api.url}/veritas/${url}`, { headers: { cookie } });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes };
}

const appPhoto = (who: string, trackingId: string, bytes: Buffer, type = 'image/jpeg') =>
  appCall(
    `cases/photo/?tracking_id=${encodeURIComponent(trackingId)}`,
    { method: 'POST', headers: { 'content-type': type }, body: bytes },
    tokens[who],
  );

const canvas = (width = 8, height = 6) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 60 } } });
const jpeg = () => canvas().jpeg().toBuffer();
const png = () => canvas().png().toBuffer();
const webp = () => canvas().webp().toBuffer();

const GPS = {
  IFD0: { Make: 'Veritas', Model: 'Doorstep Cam' },
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: '51/1 30/1 2628/100',
    GPSLongitudeRef: 'W',
    GPSLongitude: '0/1 7/1 3986/100',
  },
};
const XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  '<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="51,30.4N"/>' +
  '</rdf:RDF></x:xmpmeta>';

/** CRC-32 of PNG chunks. */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
/** `image` with a tEXt chunk `keyword`=`text` after its IHDR. */
function withPngText(image: Buffer, keyword: string, text: string): Buffer {
  const type = Buffer.from('tEXt', 'latin1');
  const data = Buffer.from(`${keyword}\0${text}`, 'latin1');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
  const afterHeader = 8 + 4 + 4 + 13 + 4;
  return Buffer.concat([image.subarray(0, afterHeader), length, type, data, crc, image.subarray(afterHeader)]);
}
/** The chunk types of a PNG. */
function pngChunks(image: Buffer): string[] {
  const types: string[] = [];
  for (let at = 8; at < image.length;) {
    const length = image.readUInt32BE(at);
    types.push(image.toString('latin1', at + 4, at + 8));
    at += 12 + length;
  }
  return types;
}

beforeAll(async () => {
  for (const username of ['op1', 'op2', 'exec1', 'exec2']) {
    const response = await fetch(`${api.url}/veritas/app/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: PASSWORD }),
    });
    expect(response.status).toBe(200);
    tokens[username] = ((await response.json()) as { token: string }).token;
  }
});

describe('adding a photo from the console', () => {
  let item: { trackingId: string; caseId: number };
  beforeAll(async () => {
    item = await flaggedItem();
  });

  test.each([
    ['JPEG', jpeg, 'image/jpeg'],
    ['PNG', png, 'image/png'],
    ['WebP', webp, 'image/webp'],
  ])('a %s is taken, as the type its bytes say whatever the Content-Type named', async (_name, make, type) => {
    const bytes = await make();
    const answer = await addPhoto(as.exec1!, item.caseId, bytes, 'application/octet-stream');
    expect(answer).toEqual({
      status: 201,
      body: {
        id: expect.any(Number),
        content_type: type,
        size: expect.any(Number),
        by: 'exec1',
        at: expect.any(String),
        url: `api/cases/photos/${answer.body.id}/`,
      },
    });
    const stored = await getPhoto(as.exec1!, answer.body.url);
    expect(stored.status).toBe(200);
    expect(stored.headers.get('content-type')).toBe(type);
    expect(stored.bytes.length).toBe(answer.body.size);
    const metadata = await sharp(stored.bytes).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual([type.slice(6), 8, 6]);
  });

  test('a JPEG sent as text, as HTML, as SVG or with no Content-Type is taken as a JPEG: the bytes decide', async () => {
    const { caseId } = await flaggedItem();
    const bytes = await jpeg();
    for (const type of ['text/plain', 'text/html', 'image/svg+xml', '']) {
      const answer = await addPhoto(as.exec1!, caseId, bytes, type);
      expect([type, answer.status, answer.body.content_type]).toEqual([type, 201, 'image/jpeg']);
    }
  });

  test('the photo is answered as an image that can never run as a page', async () => {
    const { body } = await addPhoto(as.admin!, item.caseId, await png(), 'image/png');
    const answer = await getPhoto(as.admin!, body.url);
    expect(answer.status).toBe(200);
    expect({
      type: answer.headers.get('content-type'),
      nosniff: answer.headers.get('x-content-type-options'),
      policy: answer.headers.get('content-security-policy'),
      disposition: answer.headers.get('content-disposition'),
      cache: answer.headers.get('cache-control'),
    }).toEqual({
      type: 'image/png',
      nosniff: 'nosniff',
      policy: "default-src 'none'; sandbox",
      disposition: `inline; filename="case-photo-${body.id}.png"`,
      cache: 'private, max-age=86400',
    });
  });

  test('a JPEG loses its EXIF (GPS position, camera) and XMP, and shows upright', async () => {
    const original = await canvas(8, 4).jpeg().withExif(GPS).withMetadata({ orientation: 6 }).withXmp(XMP).toBuffer();
    const before = await sharp(original).metadata();
    expect(before.exif).toBeDefined();
    expect(before.exif!.toString('latin1')).toContain('Doorstep Cam');
    expect(before.xmp).toBeDefined();
    expect(before.orientation).toBe(6);
    expect(before.icc).toBeDefined();

    const answer = await addPhoto(as.exec1!, item.caseId, original);
    expect(answer.status).toBe(201);
    const stored = (await getPhoto(as.exec1!, answer.body.url)).bytes;
    const after = await sharp(stored).metadata();
    const { exif, xmp, iptc, icc, orientation } = after;
    expect({ exif, xmp, iptc, icc, orientation }).toEqual({
      exif: undefined,
      icc: undefined,
      xmp: undefined,
      iptc: undefined,
      orientation: undefined,
    });
    // Turned by its orientation: 8×4 shown as 4×8.
    expect([after.width, after.height]).toEqual([4, 8]);
    expect(stored.toString('latin1')).not.toMatch(/Doorstep Cam|GPS|Exif|xmpmeta/);
  });

  test('a PNG loses its text chunks, a WebP its EXIF and XMP', async () => {
    const withText = withPngText(await png(), 'Comment', 'GPSLatitude=51.5074');
    expect(pngChunks(withText)).toContain('tEXt');
    const answer = await addPhoto(as.exec1!, item.caseId, withText, 'image/png');
    expect(answer.status).toBe(201);
    const stored = (await getPhoto(as.exec1!, answer.body.url)).bytes;
    // Only the image and its pixel density: no tEXt, zTXt, iTXt, eXIf, iCCP or tIME.
    expect(pngChunks(stored).filter((type) => !['IHDR', 'IDAT', 'IEND', 'pHYs'].includes(type))).toEqual([]);

    const original = await canvas().webp().withExif(GPS).withXmp(XMP).toBuffer();
    const before = await sharp(original).metadata();
    expect([before.exif, before.xmp].map(Boolean)).toEqual([true, true]);
    const webpAnswer = await addPhoto(as.exec1!, item.caseId, original, 'image/webp');
    expect(webpAnswer.status).toBe(201);
    const webpStored = (await getPhoto(as.exec1!, webpAnswer.body.url)).bytes;
    const after = await sharp(webpStored).metadata();
    expect([after.format, after.exif, after.xmp]).toEqual(['webp', undefined, undefined]);
    expect(webpStored.toString('latin1')).not.toMatch(/EXIF|XMP |Doorstep Cam/);
  });

  test('the timeline, the audit trail and the live event record the photo', async () => {
    const { trackingId, caseId } = await flaggedItem();
    const answer = await addPhoto(as.exec1!, caseId, await jpeg());
    expect(answer.status).toBe(201);
    const { id, size } = answer.body;

    const event = await api.db.kysely
      .selectFrom('case_events')
      .select(['kind', 'details', 'actor_id'])
      .where('case_id', '=', caseId)
      .where('kind', '=', 'photo')
      .executeTakeFirstOrThrow();
    const exec1 = await api.db.kysely
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'exec1')
      .executeTakeFirstOrThrow();
    expect({ ...event, details: JSON.parse(event.details!) }).toEqual({
      kind: 'photo',
      actor_id: exec1.id,
      details: { photo_id: id, content_type: 'image/jpeg', size },
    });

    const entry = await api.db.kysely
      .selectFrom('audit_log')
      .select(['actor_name', 'outcome', 'target_kind', 'target_id', 'target_label', 'details'])
      .where('action', '=', 'case.photo-added')
      .where('target_id', '=', String(caseId))
      .where('outcome', '=', 'success')
      .executeTakeFirstOrThrow();
    expect({ ...entry, details: JSON.parse(entry.details!) }).toEqual({
      actor_name: 'exec1',
      outcome: 'success',
      target_kind: 'case',
      target_id: String(caseId),
      target_label: `${trackingId} (E007)`,
      details: expect.objectContaining({ after: { photo_id: id, content_type: 'image/jpeg', size } }),
    });

    const events = await api.db.kysely
      .selectFrom('events')
      .select(['type', 'data'])
      .where('type', '=', 'cases')
      .execute();
    expect(
      events.map((e) => JSON.parse(e.data)).filter((e) => e.case.id === caseId && e.action === 'updated'),
    ).toHaveLength(1);
  });
});

describe('what is refused', () => {
  let caseId: number;
  beforeAll(async () => {
    ({ caseId } = await flaggedItem());
  });

  test('a GIF, a text file, an HTML page named image/jpeg: 415, whatever their Content-Type', async () => {
    const gif = await canvas().gif().toBuffer();
    const html = '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>';
    const refused = [
      await addPhoto(as.exec1!, caseId, gif, 'image/jpeg'),
      await addPhoto(as.exec1!, caseId, gif, 'image/gif'),
      await addPhoto(as.exec1!, caseId, 'just some text', 'text/plain'),
      await addPhoto(as.exec1!, caseId, 'just some text', 'application/octet-stream'),
      await addPhoto(as.exec1!, caseId, html, 'image/jpeg'),
      await addPhoto(as.exec1!, caseId, html, 'text/html'),
      await addPhoto(as.exec1!, caseId, '{"photo":1}', 'application/json'),
    ];
    for (const answer of refused) {
      expect(answer).toEqual({
        status: 415,
        body: expect.objectContaining({ detail: 'The photo must be a JPEG, PNG or WebP image.' }),
      });
    }
    expect(await photoCount(caseId)).toBe(0);
  });

  test("bytes with an image's signature that are no image: 415", async () => {
    const fakes = [
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<html><script>alert(1)</script>')]),
      Buffer.concat([(await png()).subarray(0, 8), Buffer.from('<html>')]),
      Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 <html>', 'latin1'),
      (await jpeg()).subarray(0, 40),
    ];
    for (const fake of fakes) {
      const answer = await addPhoto(as.exec1!, caseId, fake);
      expect(answer).toEqual({ status: 415, body: expect.objectContaining({ detail: expect.stringMatching(/JPEG/) }) });
    }
  });

  test('larger than 5 MiB: 413, read or not', async () => {
    const justOver = Buffer.concat([await jpeg(), Buffer.alloc(MAX_CASE_PHOTO_BYTES + 1)]).subarray(
      0,
      MAX_CASE_PHOTO_BYTES + 1,
    );
    expect(await addPhoto(as.exec1!, caseId, justOver)).toEqual({
      status: 413,
      body: expect.objectContaining({ detail: 'The photo is too large: at most 5 MiB.' }),
    });
    // Refused while it arrives, in the same words.
    const far = await addPhoto(as.exec1!, caseId, Buffer.alloc(8 * 1024 * 1024, 0xff));
    expect(far).toEqual({
      status: 413,
      body: expect.objectContaining({ detail: 'The photo is too large: at most 5 MiB.' }),
    });
  });

  test('an image of too many pixels (a decompression bomb): 413', async () => {
    const bomb = await sharp({ create: { width: 10_000, height: 6_000, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(MAX_CASE_PHOTO_BYTES);
    const answer = await addPhoto(as.exec1!, caseId, bomb, 'image/png');
    expect(answer).toEqual({
      status: 413,
      body: expect.objectContaining({ detail: expect.stringMatching(/megapixels/) }),
    });
  });

  test(`the photo after ${MAX_CASE_PHOTOS}: 409, and recorded as a refusal`, async () => {
    const { caseId: full } = await flaggedItem();
    const bytes = await jpeg();
    const added = await Promise.all(Array.from({ length: MAX_CASE_PHOTOS }, () => addPhoto(as.exec1!, full, bytes)));
    expect(added.map((a) => a.status)).toEqual(Array(MAX_CASE_PHOTOS).fill(201));
    expect(await addPhoto(as.exec1!, full, bytes)).toEqual({
      status: 409,
      body: expect.objectContaining({ detail: `The case holds ${MAX_CASE_PHOTOS} photos already, the most it keeps.` }),
    });
    expect(await photoCount(full)).toBe(MAX_CASE_PHOTOS);
    const refusal = await api.db.kysely
      .selectFrom('audit_log')
      .select(['outcome', 'target_id', 'actor_name'])
      .where('action', '=', 'case.photo-added')
      .where('outcome', '=', 'refused')
      .where('target_id', '=', String(full))
      .executeTakeFirst();
    expect(refusal).toEqual({ outcome: 'refused', target_id: String(full), actor_name: 'exec1' });
  });

  test('ten added at once to a case holding nine: one is taken', async () => {
    const { caseId: racing } = await flaggedItem();
    const bytes = await jpeg();
    for (let n = 0; n < MAX_CASE_PHOTOS - 1; n++) expect((await addPhoto(as.admin!, racing, bytes)).status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 10 }, () => addPhoto(as.admin!, racing, bytes)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(await photoCount(racing)).toBe(MAX_CASE_PHOTOS);
  });

  test('hostile input: 4xx with a detail, never a 5xx', async () => {
    const bytes = await jpeg();
    const answers = {
      emptyBody: await addPhoto(as.exec1!, caseId, Buffer.alloc(0)),
      noBody: await addPhoto(as.exec1!, caseId, undefined, undefined),
      letters: await addPhoto(as.exec1!, 'abc', bytes),
      zero: await addPhoto(as.exec1!, '0', bytes),
      negative: await addPhoto(as.exec1!, '-1', bytes),
      decimal: await addPhoto(as.exec1!, '1.5', bytes),
      beyondInteger: await addPhoto(as.exec1!, '9999999999', bytes),
      elevenDigits: await addPhoto(as.exec1!, '99999999999', bytes),
      huge: await addPhoto(as.exec1!, '9'.repeat(100), bytes),
      unknownCase: await addPhoto(as.exec1!, '2147483647', bytes),
      encoded: await addPhoto(as.exec1!, '%00', bytes),
      withoutXsrf: await (async () => {
        const cookie = as.exec1!.cookieHeader();
        const response = await fetch(`${api.url}/veritas/api/cases/${caseId}/photos/`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'image/jpeg' },
          body: bytes,
        });
        return { status: response.status, body: await bodyOf(response) };
      })(),
      signedOut: await postRaw(api.client(), `api/cases/${caseId}/photos/`, bytes, 'image/jpeg'),
      signedOutWithXsrf: await (async () => {
        const client = api.client();
        await client.get('user/is_LoggedIn/');
        return postRaw(client, `api/cases/${caseId}/photos/`, bytes, 'image/jpeg');
      })(),
    };
    const statuses = Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, answer.status]));
    expect(statuses).toEqual({
      emptyBody: 400,
      noBody: 400,
      letters: 400,
      zero: 400,
      negative: 400,
      decimal: 400,
      beyondInteger: 404,
      elevenDigits: 400,
      huge: 400,
      unknownCase: 404,
      encoded: 400,
      withoutXsrf: 403,
      // The XSRF check comes first: without a session, no XSRF cookie either.
      signedOut: 403,
      signedOutWithXsrf: 401,
    });
    for (const [name, answer] of Object.entries(answers))
      expect([name, typeof answer.body?.detail]).toEqual([name, 'string']);
    // A parameter beyond Fastify's maxParamLength (100) is refused by its router before the error
    // handler, with the documented body (refused-before-routing.test.ts): true of every route with a parameter.
    expect((await addPhoto(as.exec1!, '9'.repeat(5000), bytes)).status).toBe(414);
    expect(answers.letters.body).toMatchObject({ field: 'id', detail: 'The case id must be a number.' });

    const reads = {
      letters: await getPhoto(as.exec1!, 'api/cases/photos/abc/'),
      zero: await getPhoto(as.exec1!, 'api/cases/photos/0/'),
      beyondInteger: await getPhoto(as.exec1!, 'api/cases/photos/9999999999/'),
      huge: await getPhoto(as.exec1!, `api/cases/photos/${'9'.repeat(100)}/`),
      unknown: await getPhoto(as.exec1!, 'api/cases/photos/2147483647/'),
      signedOut: await getPhoto(api.client(), 'api/cases/photos/1/'),
    };
    expect(Object.fromEntries(Object.entries(reads).map(([name, answer]) => [name, answer.status]))).toEqual({
      letters: 400,
      zero: 400,
      beyondInteger: 404,
      huge: 400,
      unknown: 404,
      signedOut: 401,
    });
    for (const answer of Object.values(reads)) expect(typeof JSON.parse(answer.bytes.toString()).detail).toBe('string');
    expect(await photoCount(caseId)).toBe(0);
  });
});

describe('who may add and see', () => {
  let item: { trackingId: string; caseId: number };
  let url: string;
  beforeAll(async () => {
    item = await flaggedItem();
    const answer = await addPhoto(as.exec1!, item.caseId, await jpeg());
    expect(answer.status).toBe(201);
    url = answer.body.url;
  });

  test("another hub's executive: 404 on reading it and on adding one", async () => {
    const read = await getPhoto(as.exec2!, url);
    expect(read.status).toBe(404);
    expect(JSON.parse(read.bytes.toString())).toEqual({ detail: expect.any(String) });
    expect(await addPhoto(as.exec2!, item.caseId, await jpeg())).toEqual({
      status: 404,
      body: expect.objectContaining({ detail: `Case ${item.caseId} not found.` }),
    });
    expect(await photoCount(item.caseId)).toBe(1);
  });

  test('an admin sees it, as does its own hub', async () => {
    expect((await getPhoto(as.admin!, url)).status).toBe(200);
    expect((await getPhoto(as.exec1!, url)).status).toBe(200);
  });
});

describe('app/cases/photo/: the doorstep photo', () => {
  test('the operator who submitted the device adds a photo to its open case, stripped like any other', async () => {
    const { trackingId, caseId } = await flaggedItem('op1');
    const original = await canvas().jpeg().withExif(GPS).toBuffer();
    const answer = await appPhoto('op1', trackingId, original, 'image/png');
    expect(answer).toEqual({
      status: 201,
      body: expect.objectContaining({ content_type: 'image/jpeg', by: 'op1', url: expect.any(String) }),
    });
    const stored = await getPhoto(as.exec1!, answer.body.url);
    expect((await sharp(stored.bytes).metadata()).exif).toBeUndefined();
    expect(await photoCount(caseId)).toBe(1);
    const entry = await api.db.kysely
      .selectFrom('audit_log')
      .select(['actor_name', 'details'])
      .where('action', '=', 'case.photo-added')
      .where('target_id', '=', String(caseId))
      .executeTakeFirstOrThrow();
    expect(entry.actor_name).toBe('op1');
    expect(JSON.parse(entry.details!)).toMatchObject({ channel: 'app' });
  });

  test("who may not read the case (another operator, another hub's executive): 404, as for no case; its hub's executive: 201", async () => {
    const { trackingId, caseId } = await flaggedItem('op1');
    for (const user of ['op2', 'exec2']) {
      expect([user, await appPhoto(user, trackingId, await jpeg())]).toEqual([
        user,
        { status: 404, body: expect.objectContaining({ detail: `No open case for tracking ID ${trackingId}.` }) },
      ]);
    }
    expect((await appPhoto('exec1', trackingId, await jpeg())).status).toBe(201);
    expect(await photoCount(caseId)).toBe(1);
  });

  test('a tracking ID without an open case: 404; the byte rules as in the console', async () => {
    const { trackingId } = await flaggedItem('op1');
    expect((await appPhoto('op1', 'NO-SUCH-TID', await jpeg())).status).toBe(404);
    const answers = [
      await appPhoto('op1', trackingId, Buffer.from('<html></html>'), 'image/jpeg'),
      await appPhoto('op1', trackingId, Buffer.alloc(MAX_CASE_PHOTO_BYTES + 1, 0xff)),
      await appCall(
        'cases/photo/',
        { method: 'POST', headers: { 'content-type': 'image/jpeg' }, body: await jpeg() },
        tokens.op1,
      ),
      await appCall(`cases/photo/?tracking_id=${trackingId}`, {
        method: 'POST',
        headers: { 'content-type': 'image/jpeg' },
        body: await jpeg(),
      }),
      await appCall(
        `cases/photo/?tracking_id=${'X'.repeat(129)}`,
        { method: 'POST', headers: { 'content-type': 'image/jpeg' }, body: await jpeg() },
        tokens.op1,
      ),
    ];
    expect(answers.map((a) => a.status)).toEqual([415, 413, 400, 401, 400]);
    for (const answer of answers) expect(typeof answer.body.detail).toBe('string');
  });
});

async function photoCount(caseId: number): Promise<number> {
  const rows = await api.db.kysely.selectFrom('case_photos').select('id').where('case_id', '=', caseId).execute();
  return rows.length;
}
