// app/* (the mobile app's calls) and api/exclude_list/ over real HTTP:
// sign-in with a bearer token, the doorstep check and submission with every code of docs/field-scans.md#device-error-codes,
// the verifications at hub and return centre, and concurrent submissions.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { PASSWORD, build, uploadCsv } from './support/build';

const api = build({
  groups: [
    { code: 'HUB1', organization: 'hub' },
    { code: 'HUB2', organization: 'hub' },
    { code: 'RC1', organization: 'RC' },
  ],
  users: [
    { username: 'op1', role: 'operators', group: 'HUB1' },
    { username: 'op2', role: 'operators', group: 'HUB1' },
    { username: 'op3', role: 'operators', group: 'HUB2' },
    { username: 'exec1', role: 'executive', group: 'HUB1' },
    { username: 'inch1', role: 'incharge', group: 'HUB1' },
    { username: 'exec2', role: 'executive', group: 'HUB2' },
    { username: 'rc1', role: 'executive', group: 'RC1' },
    { username: 'ops1', role: 'central_ops' },
    { username: 'admin1', role: 'admin' },
  ],
  signIn: { admin: 'admin1' },
});
const { as } = api;
const tokens: Record<string, string> = {};

const HEADER =
  'tracking_id,hub_code,device_type,device_brand,device_model_name,is_blindpick,blind_brand,blind_model,created_date';
let sequence = 0;
const tid = () => `APP-${++sequence}-${crypto.randomBytes(3).toString('hex')}`;

interface Item {
  hub?: string;
  brand?: string;
  model?: string;
  blind?: boolean;
}

/** Uploads one shipment of the given items through api/upload/; their tracking IDs. */
async function ship(...items: Item[]): Promise<string[]> {
  const ids = items.map(() => tid());
  const rows = items.map(({ hub = 'HUB1', brand = 'Samsung', model = 'Galaxy S23', blind = false }, n) =>
    blind ? `${ids[n]},${hub},mobile,,,true,${brand},${model},` : `${ids[n]},${hub},mobile,${brand},${model},false,,,`,
  );
  const answers = await uploadCsv(as.admin!, 'shipment.csv', `${HEADER}\n${rows.join('\n')}\n`);
  expect(answers.at(-1)!.body).toMatchObject({ processed: items.length });
  return ids;
}

const randomHex = (digits: number) => crypto.randomBytes(8).toString('hex').toUpperCase().slice(0, digits);
const colons = (hex: string) => hex.match(/../g)!.join(':');

/** A fresh MAC of the registry organization's first MA-L block. */
async function macOf(manufacturer: string): Promise<string> {
  const row = await api.db.kysely
    .selectFrom('oui_prefixes as p')
    .innerJoin('manufacturers as m', 'm.id', 'p.manufacturer_id')
    .select('p.prefix')
    .where('m.manufacturer', '=', manufacturer)
    .where(sql<boolean>`length(p.prefix) = 6`)
    .orderBy('p.prefix')
    .executeTakeFirstOrThrow();
  return colons(row.prefix + randomHex(6));
}
/** Locally administered: no organization in the registry. */
const unknownMac = () => colons(`0A${randomHex(10)}`);
const samsungMac = () => macOf('Samsung Electronics Co.,Ltd');

async function call(path: string, body: unknown, token?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${api.url}/veritas/app/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
const appLogin = (username: string, password = PASSWORD) => call('login/', { username, password });

async function scan(
  path: 'check' | 'submit',
  who: string,
  trackingId: string,
  { mac, model = 'Galaxy S23', hardware = 'HW-1' }: { mac?: string; model?: string; hardware?: string } = {},
) {
  return call(
    `scan/${path}/`,
    { tracking_id: trackingId, mac_address: mac ?? (await samsungMac()), model, hardware_id: hardware },
    tokens[who],
  );
}
const verify = (path: 'verify_hub' | 'verify_rc', who: string, trackingId: string, hardware = 'HW-1') =>
  call(`scan/${path}/`, { tracking_id: trackingId, hardware_id: hardware }, tokens[who]);

async function record(trackingId: string): Promise<any> {
  const answer = await as.admin!.get('api/get_status/');
  return answer.body.find((r: any) => r.tracking_id.tracking_id === trackingId);
}

beforeAll(async () => {
  for (const username of ['op1', 'op2', 'op3', 'exec1', 'inch1', 'exec2', 'rc1']) {
    const answer = await appLogin(username);
    expect(answer.status).toBe(200);
    tokens[username] = answer.body.token;
  }
});

describe('app/login/', () => {
  test('field staff get a token, their role and hub code (the RC code for RC users)', async () => {
    expect((await appLogin('op1')).body).toEqual({ token: expect.any(String), role: 'operators', hub_code: 'HUB1' });
    expect((await appLogin('inch1')).body).toMatchObject({ role: 'incharge', hub_code: 'HUB1' });
    expect((await appLogin('rc1')).body).toMatchObject({ role: 'executive', hub_code: 'RC1' });
  });

  test('console-only roles are refused: central_ops and admin', async () => {
    for (const username of ['ops1', 'admin1']) {
      expect(await appLogin(username)).toEqual({
        status: 403,
        body: expect.objectContaining({ detail: 'This account cannot use the mobile app.' }),
      });
    }
  });

  test('a wrong password is refused like on the console', async () => {
    expect((await appLogin('op1', 'wrong-password')).status).toBe(401);
  });

  test('the token expires after its 12 hours', async () => {
    const { token } = (await appLogin('op2')).body;
    const [id] = await ship({});
    expect(
      (
        await call(
          'scan/check/',
          { tracking_id: id, mac_address: await samsungMac(), model: 'Galaxy S23', hardware_id: 'HW' },
          token,
        )
      ).status,
    ).toBe(200);
    const hash = crypto.createHash('sha256').update(token).digest('hex');
    await api.db.kysely
      .updateTable('auth_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hash)
      .execute();
    expect(
      (
        await call(
          'scan/check/',
          { tracking_id: id, mac_address: await samsungMac(), model: 'Galaxy S23', hardware_id: 'HW' },
          token,
        )
      ).status,
    ).toBe(401);
  });

  test('deactivation ends the app session and refuses the next sign-in', async () => {
    await api.insertUser('leaver', 'operators');
    const { token } = (await appLogin('leaver')).body;
    const user = await api.db.kysely
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'leaver')
      .executeTakeFirstOrThrow();
    expect((await as.admin!.post('user/deactivate_user/', { user_id: user.id })).status).toBe(200);
    expect(
      (await call('scan/check/', { tracking_id: 'X', mac_address: unknownMac(), model: '', hardware_id: 'HW' }, token))
        .status,
    ).toBe(401);
    expect((await appLogin('leaver')).status).toBe(403);
  });

  test('logout revokes the token', async () => {
    const { token } = (await appLogin('op2')).body;
    expect((await call('logout/', {}, token)).status).toBe(200);
    expect(
      (await call('scan/check/', { tracking_id: 'X', mac_address: unknownMac(), model: '', hardware_id: 'HW' }, token))
        .status,
    ).toBe(401);
  });

  test('only the bearer token authenticates: a console session cookie is not enough', async () => {
    const consoleUser = await api.signIn('exec1');
    const answer = await consoleUser.post('app/scan/verify_hub/', { tracking_id: 'X', hardware_id: 'HW' });
    expect(answer.status).toBe(401);
  });
});

describe('app/scan/check/ and app/scan/submit/ (operators)', () => {
  test('check answers the result with its texts, the expected and the found device, and stores nothing', async () => {
    const [id] = await ship({});
    const answer = await scan('check', 'op1', id!);
    expect(answer).toEqual({
      status: 200,
      body: {
        result: 'passed',
        title: 'Passed',
        description: expect.any(String),
        expected: { brand: 'Samsung', model: 'Galaxy S23' },
        found: { manufacturer: 'Samsung Electronics Co.,Ltd', model: 'Galaxy S23' },
      },
    });
    expect((await record(id!)).is_submit).toBe(false);
  });

  test('submit stores the doorstep submission: who, when, the device found and the result', async () => {
    const [id] = await ship({});
    const before = Date.now();
    expect((await scan('submit', 'op1', id!, { model: 'galaxy s23' })).body.result).toBe('passed');
    const stored = await record(id!);
    expect(stored).toMatchObject({
      is_submit: true,
      submitted_by: { username: 'op1' },
      submitted_device_name: 'galaxy s23',
      submitted_manufacturer: 'Samsung Electronics Co.,Ltd',
      device_result: 'passed',
      is_verified: false,
    });
    expect(Date.parse(stored.submit_time)).toBeGreaterThanOrEqual(before - 1000);
    const row = await api.db.kysely
      .selectFrom('device_records')
      .select(['mac_address', 'hardware_id'])
      .where('tracking_id', '=', id!)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ mac_address: expect.stringMatching(/^[0-9A-F]{12}$/), hardware_id: 'HW-1' });
  });

  test('E001: a tracking ID not stored; check answers it, submit refuses it with 409', async () => {
    const check = await scan('check', 'op1', 'NO-SUCH-TID');
    expect(check.body).toMatchObject({
      result: 'E001',
      title: 'Oops...Wrong TID.',
      expected: { brand: null, model: null },
    });
    expect(await scan('submit', 'op1', 'NO-SUCH-TID')).toEqual({
      status: 409,
      body: expect.objectContaining({ code: 'E001', title: 'Oops...Wrong TID.' }),
    });
  });

  test("E002: another hub's tracking ID; submit refuses it", async () => {
    const [id] = await ship({ hub: 'HUB2' });
    expect((await scan('check', 'op1', id!)).body.result).toBe('E002');
    expect(await scan('submit', 'op1', id!)).toMatchObject({ status: 409, body: { code: 'E002' } });
    expect((await record(id!)).is_submit).toBe(false);
  });

  test('E003: submitted by another operator; the same operator may submit again', async () => {
    const [id] = await ship({});
    expect((await scan('submit', 'op1', id!)).status).toBe(200);
    expect((await scan('check', 'op2', id!)).body.result).toBe('E003');
    expect(await scan('submit', 'op2', id!)).toMatchObject({
      status: 409,
      body: { code: 'E003', title: 'TID already verified.' },
    });
    expect((await scan('submit', 'op1', id!, { model: 'Galaxy S23 Ultra' })).body.result).toBe('E007');
    expect(await record(id!)).toMatchObject({ submitted_by: { username: 'op1' }, device_result: 'E007' });
  });

  test('E004: a MAC already captured for another tracking ID; submitted with its result', async () => {
    const [first, second] = await ship({}, {});
    const mac = await samsungMac();
    expect((await scan('submit', 'op1', first!, { mac })).body.result).toBe('passed');
    expect((await scan('check', 'op1', second!, { mac: mac.toLowerCase().replace(/:/g, '-') })).body.result).toBe(
      'E004',
    );
    expect((await scan('submit', 'op1', second!, { mac })).body).toMatchObject({
      result: 'E004',
      title: 'Device duplication detected.',
    });
    expect((await record(second!)).device_result).toBe('E004');
  });

  test('E005: no registry manufacturer for the MAC; submitted with its result', async () => {
    const [id] = await ship({});
    expect((await scan('submit', 'op1', id!, { mac: unknownMac() })).body).toMatchObject({
      result: 'E005',
      found: { manufacturer: null },
    });
    expect(await record(id!)).toMatchObject({ device_result: 'E005', submitted_manufacturer: null });
  });

  test("the manufacturer is the longest assigned prefix's: an MA-S block's owner, not the MA-L holding it", async () => {
    const [id] = await ship({});
    const mac = colons(`70B3D5001${randomHex(3)}`);
    expect((await scan('submit', 'op1', id!, { mac })).body).toMatchObject({
      result: 'E006',
      found: { manufacturer: 'SOREDI touch systems GmbH' },
    });
  });

  test('E006: a manufacturer other than the brand; submitted with its result', async () => {
    const [id] = await ship({});
    const answer = await scan('submit', 'op1', id!, { mac: await macOf('Apple, Inc.') });
    expect(answer.body).toMatchObject({
      result: 'E006',
      title: 'Brand Mismatch..',
      expected: { brand: 'Samsung' },
      found: { manufacturer: 'Apple, Inc.' },
    });
    expect(await record(id!)).toMatchObject({ device_result: 'E006', submitted_manufacturer: 'Apple, Inc.' });
  });

  test('E007: another model; submitted with its result', async () => {
    const [id] = await ship({});
    expect((await scan('submit', 'op1', id!, { model: 'Galaxy S23+' })).body).toMatchObject({
      result: 'E007',
      expected: { model: 'Galaxy S23' },
      found: { model: 'Galaxy S23+' },
    });
  });

  test('blind pick: the blind brand and model are expected', async () => {
    const [id] = await ship({ blind: true, brand: 'Apple', model: 'iPhone 14' });
    expect(
      (await scan('check', 'op1', id!, { mac: await macOf('Apple, Inc.'), model: 'iPhone 14' })).body,
    ).toMatchObject({
      result: 'passed',
      expected: { brand: 'Apple', model: 'iPhone 14' },
    });
  });

  test("white label: a manufacturer on the brand's list is accepted once the list is saved", async () => {
    const [id] = await ship({ brand: 'HP', model: 'Pavilion 14' });
    const mac = await macOf('Hewlett Packard');
    expect((await scan('check', 'op1', id!, { mac, model: 'Pavilion 14' })).body.result).toBe('E006');
    const brand = await as.admin!.post('api/whitelable/', { brand: 'HP', data: [] });
    expect(
      (await as.admin!.post('api/whitelable/', { id: brand.body.id, brand: 'HP', data: ['Hewlett Packard'] })).status,
    ).toBe(200);
    expect((await scan('check', 'op1', id!, { mac, model: 'Pavilion 14' })).body.result).toBe('passed');
  });

  test('exclude list: a listed brand skips the manufacturer check; removing it brings E005 back', async () => {
    const [id] = await ship({ brand: 'Noise', model: 'ColorFit Pro 4' });
    const noiseScan = { mac: unknownMac(), model: 'ColorFit Pro 4' };
    expect((await scan('check', 'op1', id!, noiseScan)).body.result).toBe('passed');
    expect((await as.admin!.post('api/exclude_list/remove/', { brand: 'noise' })).status).toBe(200);
    expect((await scan('check', 'op1', id!, noiseScan)).body.result).toBe('E005');
    expect((await as.admin!.post('api/exclude_list/', { brand: 'Noise' })).status).toBe(201);
    expect((await scan('check', 'op1', id!, noiseScan)).body.result).toBe('passed');
  });

  test('bad input is refused with the field: a MAC that is not one, a missing tracking ID', async () => {
    expect(await scan('check', 'op1', 'X', { mac: 'not-a-mac' })).toMatchObject({
      status: 400,
      body: { field: 'mac_address' },
    });
    expect(
      await call('scan/check/', { mac_address: unknownMac(), model: '', hardware_id: 'HW' }, tokens.op1),
    ).toMatchObject({
      status: 400,
      body: { field: 'tracking_id' },
    });
  });

  test('only operators scan at the doorstep', async () => {
    const [id] = await ship({});
    for (const who of ['exec1', 'rc1']) expect((await scan('check', who, id!)).status).toBe(403);
    expect((await scan('submit', 'exec1', id!)).status).toBe(403);
  });
});

describe('app/scan/verify_hub/ and app/scan/verify_rc/', () => {
  async function submitted(): Promise<string> {
    const [id] = await ship({});
    expect((await scan('submit', 'op1', id!, { hardware: 'HW-ABC' })).status).toBe(200);
    return id!;
  }

  test('the hub verifies a submitted device, then a return centre detaches it', async () => {
    const id = await submitted();
    expect(await verify('verify_rc', 'rc1', id, 'HW-ABC')).toMatchObject({
      status: 409,
      body: { detail: 'This device has not been verified at its hub yet.' },
    });
    expect(await verify('verify_hub', 'exec1', id, 'hw-abc')).toMatchObject({
      status: 200,
      body: { result: 'passed' },
    });
    expect(await record(id)).toMatchObject({
      is_verified: true,
      verified_by: { username: 'exec1' },
      is_verified_rc: false,
    });
    expect((await verify('verify_rc', 'rc1', id, 'HW-ABC')).status).toBe(200);
    const detached = await record(id);
    expect(detached).toMatchObject({
      is_verified_rc: true,
      is_verified_rc_by: true,
      verified_by_rc: { username: 'rc1' },
    });
    expect(Date.parse(detached.verify_time_rc)).toBeGreaterThanOrEqual(Date.parse(detached.verify_time));
  });

  test('E008: a hardware ID other than the doorstep capture stores nothing, at the hub and at the RC', async () => {
    const id = await submitted();
    expect(await verify('verify_hub', 'inch1', id, 'HW-OTHER')).toEqual({
      status: 409,
      body: expect.objectContaining({ code: 'E008', title: 'Device Mismatch detected.' }),
    });
    expect((await record(id)).is_verified).toBe(false);
    expect((await verify('verify_hub', 'inch1', id, 'HW-ABC')).status).toBe(200);
    expect(await verify('verify_rc', 'rc1', id, 'HW-OTHER')).toMatchObject({ status: 409, body: { code: 'E008' } });
    expect((await record(id)).is_verified_rc).toBe(false);
  });

  test("hub verification: only the record's hub's executives and incharges, once, after the doorstep", async () => {
    const [pending] = await ship({});
    expect((await verify('verify_hub', 'exec1', pending!)).status).toBe(409);
    const id = await submitted();
    for (const who of ['exec2', 'op1', 'rc1']) expect((await verify('verify_hub', who, id, 'HW-ABC')).status).toBe(403);
    expect((await verify('verify_hub', 'exec1', 'NO-SUCH-TID')).status).toBe(404);
    expect((await verify('verify_hub', 'exec1', id, 'HW-ABC')).status).toBe(200);
    expect(await verify('verify_hub', 'inch1', id, 'HW-ABC')).toMatchObject({
      status: 409,
      body: { detail: 'This device is already verified at the hub.' },
    });
    expect((await scan('submit', 'op1', id, { hardware: 'HW-NEW' })).status).toBe(409);
  });

  test('RC verification: only users of a return centre', async () => {
    const id = await submitted();
    expect((await verify('verify_hub', 'exec1', id, 'HW-ABC')).status).toBe(200);
    for (const who of ['exec1', 'op1']) expect((await verify('verify_rc', who, id, 'HW-ABC')).status).toBe(403);
  });
});

describe('concurrent submissions', () => {
  test('two operators submitting one tracking ID at once: exactly one wins, the other gets E003', async () => {
    for (let round = 0; round < 5; round++) {
      const [id] = await ship({});
      const answers = await Promise.all([scan('submit', 'op1', id!), scan('submit', 'op2', id!)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const loser = answers.find((a) => a.status === 409)!;
      expect(loser.body.code).toBe('E003');
      const winner = answers[0]!.status === 200 ? 'op1' : 'op2';
      expect((await record(id!)).submitted_by).toEqual({ username: winner });
    }
  });

  test('one MAC on two tracking IDs at once: one passes, the other is E004', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = await ship({}, {});
      const mac = await samsungMac();
      const answers = await Promise.all([scan('submit', 'op1', a!, { mac }), scan('submit', 'op2', b!, { mac })]);
      expect(answers.map((x) => x.body.result).sort()).toEqual(['E004', 'passed']);
    }
  });
});

describe('api/exclude_list/', () => {
  test('lists the exempt brands for any console user, seeded with brands whose MACs name other makers', async () => {
    const answer = await (await api.signIn('exec1')).get('api/exclude_list/');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(
      expect.arrayContaining([{ brand: 'boAt' }, { brand: 'Fire-Boltt' }, { brand: 'Mivi' }]),
    );
  });

  test('admins add (201; 409 when present, case aside) and remove (200; 404 when absent)', async () => {
    expect((await as.admin!.post('api/exclude_list/', { brand: 'Acme Buds' })).status).toBe(201);
    expect((await as.admin!.post('api/exclude_list/', { brand: 'ACME BUDS' })).status).toBe(409);
    expect((await as.admin!.post('api/exclude_list/remove/', { brand: 'acme buds' })).status).toBe(200);
    expect((await as.admin!.post('api/exclude_list/remove/', { brand: 'Acme Buds' })).status).toBe(404);
    expect((await as.admin!.post('api/exclude_list/', { brand: ' ' })).status).toBe(400);
  });

  test('other roles may not change it', async () => {
    const executive = await api.signIn('exec1');
    expect((await executive.post('api/exclude_list/', { brand: 'Acme' })).status).toBe(403);
    expect((await executive.post('api/exclude_list/remove/', { brand: 'boAt' })).status).toBe(403);
  });
});
