// Device records as api/get_status/ answers them, and the server-side pick list's calls
// (feature device-pages, docs/screens.md#server-side-pick-list).
import { Type, type Static } from '@sinclair/typebox';
import type { RecordStatus } from '../records';
import { Choice, Nullable, Text } from './fields';

export const DeviceType = Choice(['smarttv', 'laptop', 'tablet', 'mobile', 'truewireless'] as const);
export type DeviceType = Static<typeof DeviceType>;

export const UserRef = Type.Object({ username: Type.String() });
export type UserRef = Static<typeof UserRef>;

/** The expectation a record was created from (one shipment row). */
export const TrackingInfo = Type.Object({
  tracking_id: Type.String(),
  hub_code: Nullable(Type.String()),
  created_date: Nullable(Type.String()),
  device_type: Nullable(Type.Union([DeviceType, Type.Literal('')])),
  is_Blindpick: Type.Boolean(),
  Blind_brand: Nullable(Type.String()),
  Blind_model: Nullable(Type.String()),
  device_model_name: Nullable(Type.String()),
  device_brand: Nullable(Type.String()),
});
export type TrackingInfo = Static<typeof TrackingInfo>;

/** One device expectation / verification record. */
export const DeviceRecord = Type.Object({
  id: Type.Integer(),
  tracking_id: TrackingInfo,
  is_submit: Type.Boolean(),
  submit_time: Nullable(Type.String()),
  submitted_by: Nullable(UserRef),
  submitted_device_name: Nullable(Type.String()),
  submitted_manufacturer: Nullable(Type.String()),
  is_verified: Type.Boolean(),
  verify_time: Nullable(Type.String()),
  verified_by: Nullable(UserRef),
  is_verified_rc: Type.Boolean(),
  verified_by_rc: Nullable(UserRef),
  verify_time_rc: Nullable(Type.String()),
  is_verified_rc_by: Type.Boolean(),
  device_result: Nullable(
    Type.String({ description: "'passed' or an error code such as 'E004'; null before submission." }),
  ),
});
export type DeviceRecord = Static<typeof DeviceRecord>;

export const DeviceRecordList = Type.Array(DeviceRecord);

/** The statuses the pick list filters by. */
export const DEVICE_STATUSES = ['pending', 'submitted', 'verified', 'detached'] as const;
/** Each status text (recordStatus, docs/screens.md#status) with its DEVICE_STATUSES value, in that order. */
export const DEVICE_STATUS_KEYS = {
  Pending: 'pending',
  'Submitted for verification': 'submitted',
  'verified at hub': 'verified',
  Detatched: 'detached',
} as const satisfies Readonly<Record<RecordStatus, (typeof DEVICE_STATUSES)[number]>>;
/** The results the Result column shows: passed, and the codes of docs/field-scans.md#device-error-codes. */
export const DEVICE_RESULTS = ['passed', ...Array.from({ length: 10 }, (_, n) => `E${String(n + 1).padStart(3, '0')}`)];
/** The most record ids one call of api/devices/ may name. */
export const MAX_IDS = 100;
export const MAX_PAGE_LIMIT = 500;
/** The longest tracking-ID text the pick list searches for (q): its box takes no more. */
export const MAX_SEARCH_LENGTH = 256;
const MAX_HUB_LENGTH = 128;

/** One of `values` after trimming; empty text reads as absent, like a missing field. */
const Filter = <T extends string>(values: readonly T[], message: string) =>
  Type.Unsafe<T | ''>({
    type: 'string',
    transform: ['trim'],
    enum: ['', ...values],
    errorMessages: { missing: message, enum: message },
  });

const limitMessage = `limit must be a whole number from 1 to ${MAX_PAGE_LIMIT}.`;
export const idsMessage = `ids must be at most ${MAX_IDS} record ids (whole numbers from 1) separated by commas.`;

/** The filters every call takes; each is optional, and empty text is the same as absent. */
const filterFields = {
  q: Type.Optional(
    Text(
      { missing: 'q must be text.', maxLength: `q must be at most ${MAX_SEARCH_LENGTH} characters.` },
      { minLength: 0, maxLength: MAX_SEARCH_LENGTH },
    ),
  ),
  hub: Type.Optional(
    Text(
      { missing: 'hub must be text.', maxLength: `hub must be at most ${MAX_HUB_LENGTH} characters.` },
      { minLength: 0, maxLength: MAX_HUB_LENGTH },
    ),
  ),
  status: Type.Optional(Filter(DEVICE_STATUSES, `status must be one of ${DEVICE_STATUSES.join(', ')}.`)),
  result: Type.Optional(Filter(DEVICE_RESULTS, 'result must be passed or a device error code from E001 to E010.')),
};

export const DeviceFilterQuery = Type.Object(filterFields);

export const DevicePageQuery = Type.Object({
  ...filterFields,
  after: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'The `next` of the page before.',
      errorMessages: {
        missing: 'after must be the next value of an earlier page.',
        maxLength: 'after must be the next value of an earlier page.',
      },
    }),
  ),
  limit: Type.Optional(
    Type.String({
      transform: ['trim'],
      // '', or 1 to 500 without leading zeros.
      pattern: '^(|[1-9]\\d?|[1-4]\\d\\d|500)$',
      errorMessages: { missing: limitMessage, pattern: limitMessage },
    }),
  ),
  ids: Type.Optional(
    Type.String({
      transform: ['trim'],
      maxLength: MAX_IDS * 18,
      description: 'Record ids separated by commas: those of them that pass the filters, instead of a page.',
      errorMessages: { missing: idsMessage, maxLength: idsMessage },
    }),
  ),
});

export const DevicePage = Type.Object({
  records: DeviceRecordList,
  next: Nullable(Type.String({ description: 'The `after` of the next page; null on the last.' })),
});

export const DeviceCount = Type.Object({
  total: Type.Integer(),
  more: Type.Optional(
    Type.Literal(true, {
      description: 'A search matched more records than total (10,000), and was not counted further.',
    }),
  ),
});

export const DeviceHubs = Type.Object({ hubs: Type.Array(Type.String()) });
