import {
  distinctHubCodes,
  expectedDevice,
  recordStatus,
  recordStatusOfFlags,
  recordTimeline,
  recordTimestamp,
  resultDisplay,
  scannedDevice,
  timeValue,
} from './records';
import { makeRecord } from './testing/records';

const submitted = { is_submit: true, submit_time: '2025-03-02T09:00:00.000Z', submitted_by: { username: 'wm1' } };
const verified = {
  ...submitted,
  is_verified: true,
  verify_time: '2025-03-03T11:00:00.000Z',
  verified_by: { username: 'hub1' },
};
const detached = {
  ...verified,
  is_verified_rc: true,
  is_verified_rc_by: true,
  verify_time_rc: '2025-03-04T12:00:00.000Z',
  verified_by_rc: { username: 'rc1' },
};

describe('recordStatus', () => {
  test('a record not submitted is Pending', () => {
    expect(recordStatus(makeRecord())).toBe('Pending');
  });
  test('a submitted record is Submitted for verification', () => {
    expect(recordStatus(makeRecord(submitted))).toBe('Submitted for verification');
  });
  test('a submitted and verified record is verified at hub', () => {
    expect(recordStatus(makeRecord(verified))).toBe('verified at hub');
  });
  test('a submitted, verified and RC-verified record is Detatched (spelling kept, docs/screens.md#status)', () => {
    expect(recordStatus(makeRecord(detached))).toBe('Detatched');
  });
  test('verification without submission is still Pending', () => {
    expect(recordStatus(makeRecord({ is_verified: true }))).toBe('Pending');
  });
});

describe('recordStatusOfFlags', () => {
  test('the same texts from the flags is_submit, is_verified and is_verified_rc_by alone', () => {
    expect(recordStatusOfFlags(false, false, false)).toBe('Pending');
    expect(recordStatusOfFlags(false, true, true)).toBe('Pending');
    expect(recordStatusOfFlags(true, false, false)).toBe('Submitted for verification');
    expect(recordStatusOfFlags(true, true, false)).toBe('verified at hub');
    expect(recordStatusOfFlags(true, true, true)).toBe('Detatched');
  });
});

describe('recordTimestamp', () => {
  test('a verified record shows its verify time, kind verified', () => {
    expect(recordTimestamp(makeRecord(verified))).toEqual({ time: '2025-03-03T11:00:00.000Z', kind: 'verified' });
  });
  test('a submitted record shows its submit time, kind submitted', () => {
    expect(recordTimestamp(makeRecord(submitted))).toEqual({ time: '2025-03-02T09:00:00.000Z', kind: 'submitted' });
  });
  test('a pending record shows its created date, kind created', () => {
    expect(recordTimestamp(makeRecord())).toEqual({ time: '2025-03-01T10:00:00.000Z', kind: 'created' });
  });
});

describe('timeValue', () => {
  test('missing or invalid times sort as oldest', () => {
    expect(timeValue(null)).toBe(Number.NEGATIVE_INFINITY);
    expect(timeValue('garbage')).toBe(Number.NEGATIVE_INFINITY);
    expect(timeValue('2025-03-01T10:00:00.000Z')).toBe(Date.UTC(2025, 2, 1, 10));
  });
});

describe('resultDisplay', () => {
  test('passed on a submitted record shows a pass mark', () => {
    expect(resultDisplay(makeRecord({ ...submitted, device_result: 'passed' }))).toEqual({ kind: 'pass' });
  });
  test('a result starting with E shows an error with its code', () => {
    expect(resultDisplay(makeRecord({ ...verified, device_result: 'E004' }))).toEqual({ kind: 'error', code: 'E004' });
  });
  test('any other result shows nothing', () => {
    expect(resultDisplay(makeRecord({ ...submitted, device_result: 'unknown' }))).toBeNull();
    expect(resultDisplay(makeRecord({ ...submitted, device_result: null }))).toBeNull();
  });
  test('a result on a record neither submitted nor verified shows nothing', () => {
    expect(resultDisplay(makeRecord({ device_result: 'passed' }))).toBeNull();
  });
  test('a result on a verified but unsubmitted record is shown', () => {
    expect(resultDisplay(makeRecord({ is_verified: true, device_result: 'passed' }))).toEqual({ kind: 'pass' });
  });
});

describe('expectedDevice', () => {
  test('a regular item shows the device model name and brand with its type', () => {
    expect(expectedDevice(makeRecord())).toEqual({ type: 'mobile', name: 'Galaxy S24', brand: 'Samsung' });
  });
  test('a blind-pick item shows the blind model and blind brand', () => {
    const r = makeRecord({
      tracking_id: { is_Blindpick: true, Blind_brand: 'Acme', Blind_model: 'X1', device_type: 'laptop' },
    });
    expect(expectedDevice(r)).toEqual({ type: 'laptop', name: 'X1', brand: 'Acme' });
  });
  test('missing names and brands show N/A', () => {
    const r = makeRecord({ tracking_id: { device_model_name: null, device_brand: '  ' } });
    expect(expectedDevice(r)).toMatchObject({ name: 'N/A', brand: 'N/A' });
    const blind = makeRecord({ tracking_id: { is_Blindpick: true } });
    expect(expectedDevice(blind)).toMatchObject({ name: 'N/A', brand: 'N/A' });
  });
  test('an empty or unknown device type is generic', () => {
    expect(expectedDevice(makeRecord({ tracking_id: { device_type: '' } })).type).toBe('generic');
    expect(expectedDevice(makeRecord({ tracking_id: { device_type: null } })).type).toBe('generic');
  });
});

describe('scannedDevice', () => {
  test('shows the submitted device name and manufacturer', () => {
    const r = makeRecord({ ...submitted, submitted_device_name: 'SM-S921B', submitted_manufacturer: 'samsung' });
    expect(scannedDevice(r)).toEqual({ name: 'SM-S921B', manufacturer: 'samsung' });
  });
  test('nothing scanned is null (shown as N/A)', () => {
    expect(scannedDevice(makeRecord())).toBeNull();
  });
  test('a missing half shows N/A', () => {
    expect(scannedDevice(makeRecord({ submitted_device_name: 'Pixel 8' }))).toEqual({
      name: 'Pixel 8',
      manufacturer: 'N/A',
    });
  });
});

describe('recordTimeline', () => {
  test('lists Submitted, Verified at Hub and Verified at RC with time and user', () => {
    expect(recordTimeline(makeRecord(detached))).toEqual([
      { label: 'Submitted', reached: true, time: '2025-03-02T09:00:00.000Z', by: 'wm1' },
      { label: 'Verified at Hub', reached: true, time: '2025-03-03T11:00:00.000Z', by: 'hub1' },
      { label: 'Verified at RC', reached: true, time: '2025-03-04T12:00:00.000Z', by: 'rc1' },
    ]);
  });
  test('steps not reached are marked so', () => {
    expect(recordTimeline(makeRecord(submitted)).map((s) => s.reached)).toEqual([true, false, false]);
  });
});

describe('hub codes', () => {
  test('distinct hub codes are sorted, case-insensitively unique, without empty codes', () => {
    const records = [
      makeRecord({ tracking_id: { hub_code: 'HUB02' } }),
      makeRecord({ tracking_id: { hub_code: 'HUB01' } }),
      makeRecord({ tracking_id: { hub_code: 'hub02' } }),
      makeRecord({ tracking_id: { hub_code: null } }),
      makeRecord({ tracking_id: { hub_code: ' ' } }),
    ];
    expect(distinctHubCodes(records)).toEqual(['HUB01', 'HUB02']);
  });
});
