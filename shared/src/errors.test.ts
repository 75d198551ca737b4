import { DEVICE_ERRORS, deviceError } from './errors';

test('the catalogue holds E001 to E010, each with code, reason, title and description', () => {
  expect(DEVICE_ERRORS.map((e) => e.code)).toEqual([
    'E001',
    'E002',
    'E003',
    'E004',
    'E005',
    'E006',
    'E007',
    'E008',
    'E009',
    'E010',
  ]);
  for (const entry of DEVICE_ERRORS) {
    expect(entry.reason).toBeTruthy();
    expect(entry.title).toBeTruthy();
    expect(entry.description).toBeTruthy();
  }
});

test('titles are the ones field staff see (docs/field-scans.md#device-error-codes)', () => {
  expect(deviceError('E001')?.title).toBe('Oops...Wrong TID.');
  expect(deviceError('E002')?.title).toBe('Oops...Wrong TID.');
  expect(deviceError('E003')?.title).toBe('TID already verified.');
  expect(deviceError('E004')?.title).toBe('Device duplication detected.');
  expect(deviceError('E005')?.title).toBe('Fraudulent device detected.');
  expect(deviceError('E006')?.title).toBe('Brand Mismatch..');
  expect(deviceError('E007')?.title).toBe('Incorrect device detected.');
  expect(deviceError('E008')?.title).toBe('Device Mismatch detected.');
});

test('lookup of passed, unknown or missing codes finds nothing', () => {
  expect(deviceError('passed')).toBeUndefined();
  expect(deviceError('E011')).toBeUndefined();
  expect(deviceError(null)).toBeUndefined();
});
