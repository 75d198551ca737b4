import { recordStatus } from '../records';
import { makeRecord, seededRandom, VOLUME_SPAN_DAYS, volumeRecord, type VolumeOptions } from './records';

const NOW = Date.parse('2026-05-01T12:00:00Z');
const options = (count: number, seed = 1): VolumeOptions => ({
  rand: seededRandom(seed),
  now: NOW,
  count,
  hubs: [
    { code: 'BLR01', operator: 'wm_blr', verifier: 'exec_blr', rc: 'rc_south' },
    { code: 'DEL02', operator: 'wm_del', verifier: 'exec_del', rc: 'rc_north' },
  ],
  devices: [
    { type: 'mobile', brand: 'Samsung', model: 'Galaxy S23', manufacturer: 'Samsung Electronics Co.,Ltd' },
    { type: '', brand: 'Noise', model: 'ColorFit Pro 4', manufacturer: 'Nexxbase Marketing' },
  ],
});
const volume = (count: number, seed = 1) => {
  const drawn = options(count, seed);
  return Array.from({ length: count }, (_, i) => volumeRecord(i, drawn));
};

describe('makeRecord', () => {
  test('a pending record with every field filled; overrides replace fields, tracking_id field by field', () => {
    const record = makeRecord({ id: 7, is_submit: true, tracking_id: { hub_code: 'DEL02' } });
    expect(record).toMatchObject({ id: 7, is_submit: true, submitted_by: null, device_result: null });
    expect(record.tracking_id).toMatchObject({ tracking_id: 'TRK-0001', hub_code: 'DEL02', device_brand: 'Samsung' });
  });
});

describe('volumeRecord', () => {
  const records = volume(1000);

  test('the same source gives the same volume; records are numbered from 1 with unique tracking IDs', () => {
    expect(volume(1000)).toEqual(records);
    expect(records.map((r) => r.id)).toEqual(records.map((_, i) => i + 1));
    expect(new Set(records.map((r) => r.tracking_id.tracking_id)).size).toBe(1000);
  });

  test('every state is present, and each step follows the one before it, by the given staff, before now', () => {
    expect(new Set(records.map(recordStatus))).toEqual(
      new Set(['Pending', 'Submitted for verification', 'verified at hub', 'Detatched']),
    );
    for (const r of records) {
      if (r.is_verified)
        expect(r.is_submit && r.verify_time! > r.submit_time! && r.verified_by!.username.startsWith('exec_')).toBe(
          true,
        );
      if (r.is_verified_rc)
        expect(
          r.is_verified && r.verify_time_rc! > r.verify_time! && r.verified_by_rc!.username.startsWith('rc_'),
        ).toBe(true);
      if (r.is_submit) expect(Date.parse(r.submit_time!)).toBeLessThanOrEqual(NOW);
      expect(r.device_result === null).toBe(!r.is_submit);
    }
  });

  test('records are numbered in the order they were created, over the span ending now, as uploads store them', () => {
    const created = records
      .map((r) => r.tracking_id.created_date)
      .filter((date): date is string => date !== null && date !== 'not-a-date')
      .map(Date.parse);
    expect(created).toEqual([...created].sort((a, b) => a - b));
    const dayMs = 24 * 60 * 60 * 1000;
    expect(created[0]!).toBeGreaterThanOrEqual(NOW - VOLUME_SPAN_DAYS * dayMs);
    expect(created[0]!).toBeLessThan(NOW - (VOLUME_SPAN_DAYS - 1) * dayMs);
    expect(created.at(-1)!).toBeGreaterThan(NOW - dayMs);
    expect(created.at(-1)!).toBeLessThanOrEqual(NOW);
  });

  test('the rare values of older data are placed by index, so a few hundred records hold each of them', () => {
    const at = (i: number) => records[i]!;
    expect(at(11).tracking_id.hub_code).toBeNull();
    expect(at(13).tracking_id.created_date).toBeNull();
    expect(at(7).tracking_id.created_date).toBe('not-a-date');
    expect(at(17).tracking_id.device_type).toBeNull();
    expect(at(66).tracking_id).toMatchObject({ is_Blindpick: true, Blind_brand: null, device_brand: null });
    expect(records.some((r) => r.is_submit && r.submitted_by === null)).toBe(true);
    expect(records.some((r) => r.device_result === 'E007' && r.submitted_device_name!.endsWith(' Lite'))).toBe(true);
  });
});
