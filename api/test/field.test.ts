// The field work shared by the demo data and the simulator (seed/field/): devices as scanned,
// shipments, and the order of the field staff's steps. The engine itself is tested in app.test.ts.
import { readOuiRegistry } from '../src/db/oui-registry';
import { CATALOGUE } from '../seed/field/catalogue';
import { DeviceMaker } from '../seed/field/devices';
import {
  FIELD_RATES,
  FieldWork,
  type CallResult,
  type Clock,
  type FieldCalls,
  type ShipmentItem,
} from '../seed/field/field-work';
import { seededRandom } from '@veritas/shared/testing/records';
import { makeShipment, shipmentCsv } from '../seed/field/shipment';
import { CsvRecordReader } from '../src/upload/csv-records';
import { checkRow, readHeader } from '../src/upload/shipment-rows';

const registry = readOuiRegistry();
const prefixes = new Map(registry.prefixes);
const organizationOf = (mac: string) => {
  const hex = mac.replace(/:/g, '');
  return prefixes.get(hex.slice(0, 9)) ?? prefixes.get(hex.slice(0, 7)) ?? prefixes.get(hex.slice(0, 6)) ?? null;
};
const samsungPhone = CATALOGUE.find((d) => d.model === 'Galaxy S23')!;
const noiseWatch = CATALOGUE.find((d) => d.brand === 'Noise')!;

describe('DeviceMaker', () => {
  const maker = () => new DeviceMaker(registry.prefixes, seededRandom(3));

  test("every catalogue manufacturer but Noise's is a registry organization", () => {
    const names = new Set(registry.manufacturers);
    expect(CATALOGUE.filter((d) => !names.has(d.manufacturer)).map((d) => d.brand)).toEqual(['Noise']);
  });

  test('a genuine device has a MAC of its manufacturer, the expected model and a hardware ID', () => {
    const scan = maker().scan(samsungPhone, 'genuine');
    expect(scan.mac_address).toMatch(/^([0-9A-F]{2}:){5}[0-9A-F]{2}$/);
    expect(organizationOf(scan.mac_address)).toBe('Samsung Electronics Co.,Ltd');
    expect(scan.model).toBe('Galaxy S23');
    expect(scan.hardware_id).toMatch(/^HW-[0-9A-F]{16}$/);
  });

  test('a brand without registry organization gets a locally administered MAC', () => {
    const mac = maker().scan(noiseWatch, 'genuine').mac_address;
    expect(parseInt(mac.slice(0, 2), 16) & 2).toBe(2);
    expect(organizationOf(mac)).toBeNull();
  });

  test('an unknown manufacturer: a MAC of no registry organization', () => {
    const devices = maker();
    for (let i = 0; i < 50; i++)
      expect(organizationOf(devices.scan(samsungPhone, 'unknown-manufacturer').mac_address)).toBeNull();
  });

  test('a foreign manufacturer: a registry organization other than the expected one', () => {
    const found = organizationOf(maker().scan(samsungPhone, 'foreign-manufacturer').mac_address);
    expect(found).not.toBeNull();
    expect(found).not.toBe(samsungPhone.manufacturer);
  });

  test('a duplicate MAC is one handed out before', () => {
    const devices = maker();
    const earlier = devices.scan(samsungPhone, 'genuine').mac_address;
    expect(devices.scan(samsungPhone, 'duplicate-mac').mac_address).toBe(earlier);
  });

  test('another model: not the expected one', () => {
    expect(maker().scan(samsungPhone, 'other-model').model).not.toBe('Galaxy S23');
  });
});

describe('shipments', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  const items = makeShipment(seededRandom(5), { count: 300, hubs: ['H1', 'H2'], prefix: 'T', now, spanDays: 45 });

  test('unique tracking IDs, the given hubs, created within the span', () => {
    expect(new Set(items.map((i) => i.tracking_id)).size).toBe(300);
    expect(new Set(items.map((i) => i.hub_code))).toEqual(new Set(['H1', 'H2']));
    for (const item of items) {
      expect(item.created.getTime()).toBeLessThanOrEqual(now);
      expect(item.created.getTime()).toBeGreaterThan(now - 45 * 24 * 3600 * 1000);
    }
    expect(items.some((i) => i.blindPick)).toBe(true);
  });

  test('its CSV is a valid shipment CSV: every row passes the upload rules, blind picks by blind brand and model', () => {
    const reader = new CsvRecordReader();
    const records = [...reader.push(shipmentCsv(items)), ...reader.end()];
    const [header, ...rows] = records.map((r) => ('fields' in r ? r.fields : []));
    const parsed = readHeader(header!);
    if (!('columns' in parsed)) throw new Error(parsed.problem);
    const hubs = new Map([
      ['h1', 'H1'],
      ['h2', 'H2'],
      ['H1', 'H1'],
      ['H2', 'H2'],
    ]);
    const checked = rows.map((fields) => checkRow(fields, parsed.columns, hubs, new Date(now).toISOString()));
    expect(checked.filter((c) => 'errors' in c)).toEqual([]);
    checked.forEach((c, n) => {
      if (!('record' in c)) return;
      const item = items[n]!;
      expect(c.record.tracking_id).toBe(item.tracking_id);
      expect(c.record.created_date).toBe(item.created.toISOString());
      if (item.blindPick)
        expect([c.record.blind_brand, c.record.blind_model, c.record.device_brand]).toEqual([
          item.device.brand,
          item.device.model,
          null,
        ]);
      else
        expect([c.record.device_brand, c.record.device_model_name, c.record.is_blindpick]).toEqual([
          item.device.brand,
          item.device.model,
          0,
        ]);
    });
  });
});

describe('FieldWork: the order of the steps', () => {
  const item: ShipmentItem = {
    tracking_id: 'T1',
    hub_code: 'H1',
    created: new Date('2026-03-01T00:00:00Z'),
    device: samsungPhone,
    blindPick: false,
  };
  const other: ShipmentItem = { ...item, tracking_id: 'T2', hub_code: 'H2' };
  const staff = {
    operators: new Map([['H1', ['op1', 'op2']]]),
    hubVerifiers: new Map([['H1', ['exec1']]]),
    rcVerifiers: new Map([['H1', 'rc1']]),
  };

  /** Records every call; answers from `answers` by call name, else 'passed'. */
  function recorder(answers: Partial<Record<string, CallResult>> = {}) {
    const log: string[] = [];
    const answer = (name: string, user: string) => {
      log.push(`${name}:${user}`);
      return Promise.resolve(answers[name] ?? 'passed');
    };
    const calls: FieldCalls<string> = {
      check: (user) => answer('check', user),
      submit: (user) => answer('submit', user),
      verifyHub: (user) => answer('verify_hub', user),
      verifyRc: (user) => answer('verify_rc', user),
    };
    return { calls, log };
  }
  const always: Clock = (_item, _step, previous) => new Date(previous.getTime() + 1000);
  /** Each optional step happens when `happens(its probability)`. */
  const run = async (calls: FieldCalls<string>, clock: Clock, happens: (p: number) => boolean) => {
    const rand = { ...seededRandom(1), chance: happens };
    const work = new FieldWork(calls, staff, new DeviceMaker(registry.prefixes, rand), rand, clock, [item, other]);
    await work.work(item, 'op1');
    return work.tally;
  };
  const likely = (p: number) => p >= 0.5;
  const never = () => false;

  test('the likely journey: check, submit, hub verification, RC verification, each by the right person', async () => {
    const { calls, log } = recorder();
    await run(calls, always, likely);
    expect(log).toEqual(['check:op1', 'submit:op1', 'verify_hub:exec1', 'verify_rc:rc1']);
  });

  test("every mishap: a wrong TID, another hub's item, a colleague resubmitting, the wrong unit at hub and RC", async () => {
    const { calls, log } = recorder();
    await run(calls, always, (p) => p !== FIELD_RATES.notVisited);
    expect(log).toEqual([
      'check:op1',
      'check:op1',
      'check:op1',
      'submit:op1',
      'submit:op2',
      'verify_hub:exec1',
      'verify_hub:exec1',
      'verify_rc:rc1',
      'verify_rc:rc1',
    ]);
  });

  test('a failed check is rescanned when it was a mistake', async () => {
    const { calls, log } = recorder({ check: 'E007' });
    await run(calls, always, (p) => p === FIELD_RATES.retryAfterFailure);
    expect(log).toEqual(['check:op1', 'check:op1', 'submit:op1']);
  });

  test('an item not visited sees no call', async () => {
    const { calls, log } = recorder();
    await run(calls, always, (p) => p === FIELD_RATES.notVisited);
    expect(log).toEqual([]);
  });

  test('a refused submission (E001–E003) ends the journey', async () => {
    const { calls, log } = recorder({ submit: 'E003' });
    const tally = await run(calls, always, never);
    expect(log.some((l) => l.startsWith('verify'))).toBe(false);
    expect(tally.get('submit')).toEqual(new Map([['E003', 1]]));
  });

  test('a step the clock has not reached yet does not happen', async () => {
    const { calls, log } = recorder();
    const untilHub: Clock = (_item, step, previous) =>
      step === 'verify_rc' ? null : new Date(previous.getTime() + 1000);
    await run(calls, untilHub, likely);
    expect(log.some((l) => l.startsWith('verify_hub'))).toBe(true);
    expect(log.some((l) => l.startsWith('verify_rc'))).toBe(false);
  });

  test('the tally counts each call by its result', async () => {
    const { calls } = recorder({ check: 'E006', submit: 'E006' });
    const tally = await run(calls, always, never);
    expect(tally.get('check')?.get('E006')).toBeGreaterThanOrEqual(1);
    expect(tally.get('submit')).toEqual(new Map([['E006', 1]]));
  });
});
