// api/get_status/ (the record shape of docs/screens.md#device-pick-list) over the demo data, and the demo data itself.
import zlib from 'node:zlib';
import http from 'node:http';
import { SERVER_FEATURES } from '@veritas/shared/domain';
import { DEMO_PASSWORD, DEMO_USERS, demoSeed } from '../seed';
import { build, signIn } from './support/build';

const api = build({ server: { seed: demoSeed } });
let records: any[];

beforeAll(async () => {
  const answer = await (await api.signIn('admin_demo', DEMO_PASSWORD)).get('api/get_status/');
  expect(answer.status).toBe(200);
  records = answer.body;
});

const isUserRef = (value: unknown) =>
  value === null ||
  (typeof value === 'object' &&
    Object.keys(value as object).join() === 'username' &&
    typeof (value as { username: unknown }).username === 'string');
const stringOrNull = (value: unknown) => value === null || typeof value === 'string';

describe('get_status', () => {
  test('answers 401 without a session', async () => {
    expect((await api.client().get('api/get_status/')).status).toBe(401);
  });

  test('every record has exactly the keys of the record shape with the right types, tracking_id nested and user refs {username} or null', () => {
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) {
      expect(Object.keys(r).sort()).toEqual(
        [
          'id',
          'tracking_id',
          'is_submit',
          'submit_time',
          'submitted_by',
          'submitted_device_name',
          'submitted_manufacturer',
          'is_verified',
          'verify_time',
          'verified_by',
          'is_verified_rc',
          'verified_by_rc',
          'verify_time_rc',
          'is_verified_rc_by',
          'device_result',
        ].sort(),
      );
      expect(Object.keys(r.tracking_id).sort()).toEqual(
        [
          'tracking_id',
          'hub_code',
          'created_date',
          'device_type',
          'is_Blindpick',
          'Blind_brand',
          'Blind_model',
          'device_model_name',
          'device_brand',
        ].sort(),
      );
      expect(typeof r.id).toBe('number');
      expect(typeof r.tracking_id.tracking_id).toBe('string');
      for (const key of [
        'hub_code',
        'created_date',
        'device_type',
        'Blind_brand',
        'Blind_model',
        'device_model_name',
        'device_brand',
      ]) {
        expect(stringOrNull(r.tracking_id[key])).toBe(true);
      }
      expect(typeof r.tracking_id.is_Blindpick).toBe('boolean');
      for (const key of ['is_submit', 'is_verified', 'is_verified_rc', 'is_verified_rc_by'])
        expect(typeof r[key]).toBe('boolean');
      for (const key of [
        'submit_time',
        'submitted_device_name',
        'submitted_manufacturer',
        'verify_time',
        'verify_time_rc',
        'device_result',
      ]) {
        expect(stringOrNull(r[key])).toBe(true);
      }
      for (const key of ['submitted_by', 'verified_by', 'verified_by_rc']) expect(isUserRef(r[key])).toBe(true);
    }
  });

  test('times are ISO 8601 UTC and follow the record state', () => {
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
    for (const r of records) {
      expect(r.submit_time === null || iso.test(r.submit_time)).toBe(true);
      expect(r.submit_time !== null).toBe(r.is_submit);
      expect(r.verify_time !== null).toBe(r.is_verified);
      expect(r.verify_time_rc !== null).toBe(r.is_verified_rc);
      if (r.is_verified) expect(r.is_submit).toBe(true);
      if (r.is_verified_rc) expect(r.is_verified).toBe(true);
    }
  });

  test('every web role can read it', async () => {
    for (const username of ['superadmin_demo', 'central_demo', 'incharge_blr', 'exec_blr', 'rc_north']) {
      const client = await api.signIn(username, DEMO_PASSWORD);
      const answer = await client.get('api/get_status/');
      expect(answer.status).toBe(200);
      expect(answer.body).toHaveLength(records.length);
    }
  });

  test('is compressed with gzip or brotli when the client accepts it', async () => {
    const client = await api.signIn('exec_blr', DEMO_PASSWORD);
    const cookie = client.cookieHeader();
    for (const [encoding, decode] of [
      ['gzip', zlib.gunzipSync],
      ['br', zlib.brotliDecompressSync],
    ] as const) {
      const { headers, body } = await rawGet(`${api.url}/veritas/api/get_status/`, {
        cookie,
        'accept-encoding': encoding,
      });
      expect(headers['content-encoding']).toBe(encoding);
      expect(headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(decode(body).toString())).toHaveLength(records.length);
    }
  });
});

describe('demo data', () => {
  const status = (r: any) =>
    !r.is_submit
      ? 'pending'
      : !r.is_verified
        ? 'submitted'
        : r.is_verified_rc && r.is_verified_rc_by
          ? 'detached'
          : 'verified at hub';

  test('holds about 3,000 records with unique tracking ids over the last 45 days', () => {
    expect(records).toHaveLength(3000);
    expect(new Set(records.map((r) => r.tracking_id.tracking_id)).size).toBe(3000);
    const oldest = Date.now() - 46 * 24 * 60 * 60 * 1000;
    for (const r of records) {
      const created = Date.parse(r.tracking_id.created_date);
      if (!Number.isNaN(created)) expect(created).toBeGreaterThan(oldest);
    }
  });

  test('covers every state: pending, submitted, verified at hub, detached', () => {
    expect(new Set(records.map(status))).toEqual(new Set(['pending', 'submitted', 'verified at hub', 'detached']));
  });

  test('every stored result is one the rules let through: passed or E004–E007, each of them present', () => {
    const results = new Set(records.filter((r) => r.is_submit).map((r) => r.device_result));
    expect([...results].sort()).toEqual(['E004', 'E005', 'E006', 'E007', 'passed']);
    expect(records.filter((r) => !r.is_submit).every((r) => r.device_result === null)).toBe(true);
  });

  test('results agree with what was captured: the model decides E007, the manufacturer E005', () => {
    const expected = (r: any) =>
      r.tracking_id.is_Blindpick ? r.tracking_id.Blind_model : r.tracking_id.device_model_name;
    const sameModel = (a: string, b: string) =>
      a.toLowerCase().replace(/\s+/g, '') === b.toLowerCase().replace(/\s+/g, '');
    const submitted = records.filter((r) => r.is_submit);
    for (const r of submitted.filter((r) => r.device_result === 'passed'))
      expect(sameModel(r.submitted_device_name, expected(r))).toBe(true);
    for (const r of submitted.filter((r) => r.device_result === 'E007'))
      expect(sameModel(r.submitted_device_name, expected(r))).toBe(false);
    for (const r of submitted.filter((r) => r.device_result === 'E005')) expect(r.submitted_manufacturer).toBeNull();
  });

  test('a hub verification only follows a submission, a detachment only a hub verification, each later than the step before', () => {
    for (const r of records) {
      if (r.is_verified) expect(r.is_submit && Date.parse(r.verify_time) > Date.parse(r.submit_time)).toBe(true);
      if (r.is_verified_rc)
        expect(r.is_verified && Date.parse(r.verify_time_rc) > Date.parse(r.verify_time)).toBe(true);
      if (r.is_submit) expect(Date.parse(r.submit_time)).toBeGreaterThan(Date.parse(r.tracking_id.created_date));
    }
  });

  test('has blind-pick items (named by blind brand and model) and normal items', () => {
    const blind = records.filter((r) => r.tracking_id.is_Blindpick);
    expect(blind.length).toBeGreaterThan(0);
    expect(
      blind.every((r) => r.tracking_id.Blind_brand && r.tracking_id.Blind_model && r.tracking_id.device_brand === null),
    ).toBe(true);
    const normal = records.filter((r) => !r.tracking_id.is_Blindpick);
    expect(normal.every((r) => r.tracking_id.device_brand && r.tracking_id.device_model_name)).toBe(true);
  });

  test('covers every device type and items without one', () => {
    const types = new Set(records.map((r) => r.tracking_id.device_type || 'none'));
    for (const type of ['smarttv', 'laptop', 'tablet', 'mobile', 'truewireless', 'none']) expect(types).toContain(type);
  });

  test('field staff of every hub did the work: its operators, its verifiers, its return centre', () => {
    const hubs = new Set(records.map((r) => r.tracking_id.hub_code));
    expect(hubs).toEqual(new Set(['BLR01', 'DEL02', 'MUM03', 'HYD04']));
    const operatorsOf = (hub: string) =>
      new Set(
        records.filter((r) => r.is_submit && r.tracking_id.hub_code === hub).map((r) => r.submitted_by?.username),
      );
    expect(operatorsOf('BLR01')).toEqual(new Set(['wm_blr', 'wm_blr2']));
    expect(operatorsOf('HYD04')).toEqual(new Set(['wm_hyd']));
    expect(records.some((r) => r.is_verified && r.verified_by?.username === 'former_exec_hyd')).toBe(true);
    expect(records.some((r) => r.is_verified_rc && r.verified_by_rc?.username === 'rc_north')).toBe(true);
  });

  test('demo groups: hubs named by their code and RCs', async () => {
    const client = await api.signIn('exec_blr', DEMO_PASSWORD);
    const groups = (await client.get('user/get_groups/')).body;
    for (const code of ['BLR01', 'DEL02', 'MUM03', 'HYD04'])
      expect(groups).toContainEqual({ name: code, code, organization: 'hub' });
    for (const code of ['RC-NORTH', 'RC-SOUTH'])
      expect(groups).toContainEqual({ name: code, code, organization: 'RC' });
  });

  test('demo accounts: every role, one shared password; operators refused on the web, the inactive one refused', async () => {
    expect(new Set(DEMO_USERS.map((u) => u.role))).toEqual(
      new Set(['super_admin', 'admin', 'central_ops', 'incharge', 'executive', 'operators']),
    );
    for (const user of DEMO_USERS) {
      const answer = await api.client().login(user.username, DEMO_PASSWORD);
      if (user.active === false) expect(answer.status).toBe(403);
      else expect(answer.body).toEqual({ is_webview: user.role !== 'operators', role: user.role });
    }
    const incharge = await api.signIn('incharge_blr', DEMO_PASSWORD);
    expect((await incharge.get('user/get_role/')).body).toEqual({
      user: 'incharge_blr',
      role: 'incharge',
      hub_code: 'BLR01',
      features: [...SERVER_FEATURES],
    });
  });

  test('demo cases: every state and every disposition, a reopened one, and a view shared with central_ops', async () => {
    const rows = await api.db.kysely.selectFrom('cases').select(['state', 'disposition']).execute();
    expect(new Set(rows.map((row) => row.state))).toEqual(new Set(['open', 'in_review', 'resolved']));
    expect(new Set(rows.flatMap((row) => (row.disposition ? [row.disposition] : [])))).toEqual(
      new Set(['accepted', 'rejected', 'quarantined', 'returned_to_vendor', 'recycled']),
    );
    const reopened = await api.db.kysely
      .selectFrom('case_events')
      .select('id')
      .where('kind', '=', 'reopened')
      .execute();
    expect(reopened.length).toBeGreaterThan(0);
    const central = await api.signIn('central_demo', DEMO_PASSWORD);
    const views = (await central.get('api/cases/views/')).body.views;
    expect(views.map((view: { name: string }) => view.name)).toContain('Overdue fraud');
  });

  test('the start-up banner lists the demo accounts and their shared password', () => {
    expect(api.startOutput).toContain(DEMO_PASSWORD);
    for (const user of DEMO_USERS) expect(api.startOutput).toContain(user.username);
  });

  test('is loaded only into a database without device records (a restart adds nothing)', async () => {
    const again = await api.start({ seed: demoSeed });
    try {
      const client = await signIn(again.url, 'admin_demo', DEMO_PASSWORD);
      expect((await client.get('api/get_status/')).body).toHaveLength(3000);
    } finally {
      await again.close();
    }
  });
});

function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}
