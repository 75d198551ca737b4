// Test builder for device records: a pending record with every field filled, overridable.
import type { DeviceRecord, TrackingInfo } from './types';

export function makeRecord(
  overrides: Partial<Omit<DeviceRecord, 'tracking_id'>> & { tracking_id?: Partial<TrackingInfo> } = {},
): DeviceRecord {
  const { tracking_id, ...rest } = overrides;
  return {
    id: 1,
    tracking_id: {
      tracking_id: 'TRK-0001',
      hub_code: 'HUB01',
      created_date: '2025-03-01T10:00:00.000Z',
      device_type: 'mobile',
      is_Blindpick: false,
      Blind_brand: null,
      Blind_model: null,
      device_model_name: 'Galaxy S24',
      device_brand: 'Samsung',
      ...tracking_id,
    },
    is_submit: false,
    submit_time: null,
    submitted_by: null,
    submitted_device_name: null,
    submitted_manufacturer: null,
    is_verified: false,
    verify_time: null,
    verified_by: null,
    is_verified_rc: false,
    verified_by_rc: null,
    verify_time_rc: null,
    is_verified_rc_by: false,
    device_result: null,
    ...rest,
  };
}
