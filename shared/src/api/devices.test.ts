/** @jest-environment node */
import { DEVICE_STATUS_KEYS, DEVICE_STATUSES } from './devices';

describe('DEVICE_STATUS_KEYS', () => {
  test('names each status text once, with its filter value, in DEVICE_STATUSES order', () => {
    expect(Object.entries(DEVICE_STATUS_KEYS)).toEqual([
      ['Pending', 'pending'],
      ['Submitted for verification', 'submitted'],
      ['verified at hub', 'verified'],
      ['Detatched', 'detached'],
    ]);
    expect(Object.values(DEVICE_STATUS_KEYS)).toEqual(DEVICE_STATUSES);
  });
});
