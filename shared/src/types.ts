// Shapes of the /veritas API's requests and answers (each call is described in docs/, by page).

export type Role = 'operators' | 'executive' | 'incharge' | 'central_ops' | 'admin' | 'super_admin';

export type Organization = 'hub' | 'RC';

/**
 * Calls a server offers beyond the spec's (docs/architecture.md#server-features), learnt from
 * user/get_role/: 'device-pages' (the pick list a page at a time), 'dashboard-figures' (the
 * dashboard's figures computed by the server) and 'live-events' (api/events/, the stream of changes
 * that keeps open pages current: docs/events.md). Without them the console reads api/get_status/
 * and changes only when reloaded.
 */
export type ServerFeature = 'device-pages' | 'dashboard-figures' | 'live-events';

export const SERVER_FEATURES: readonly ServerFeature[] = ['device-pages', 'dashboard-figures', 'live-events'];

export interface Session {
  user: string | null;
  role: Role | null;
  hubCode: string | null;
  /** What the server offers beyond the spec; empty for a server that follows the spec alone. */
  features: readonly ServerFeature[];
  isAuthenticated: boolean;
}

export interface LoginResponse {
  is_webview: boolean;
  role: Role;
}

export interface RoleResponse {
  user: string;
  role: Role;
  hub_code: string | null;
  /** Not in the spec's answer: a server that follows the spec alone leaves it out. */
  features?: ServerFeature[];
}

export type DeviceType = 'smarttv' | 'laptop' | 'tablet' | 'mobile' | 'truewireless';

export interface UserRef {
  username: string;
}

/** The expectation a record was created from (one shipment row). */
export interface TrackingInfo {
  tracking_id: string;
  hub_code: string | null;
  created_date: string | null;
  device_type: DeviceType | '' | null;
  is_Blindpick: boolean;
  Blind_brand: string | null;
  Blind_model: string | null;
  device_model_name: string | null;
  device_brand: string | null;
}

/** One device expectation / verification record, as answered by api/get_status/. */
export interface DeviceRecord {
  id: number;
  tracking_id: TrackingInfo;
  is_submit: boolean;
  submit_time: string | null;
  submitted_by: UserRef | null;
  submitted_device_name: string | null;
  submitted_manufacturer: string | null;
  is_verified: boolean;
  verify_time: string | null;
  verified_by: UserRef | null;
  is_verified_rc: boolean;
  verified_by_rc: UserRef | null;
  verify_time_rc: string | null;
  is_verified_rc_by: boolean;
  /** 'passed' or an error code such as 'E004'; null before submission. */
  device_result: string | null;
}

export interface Group {
  name: string;
  code: string;
  organization: Organization;
}

export interface UserListItem {
  id: number;
  username: string;
  role: Role;
  is_active: boolean;
  group_info: { name: string }[];
}

export interface UserCreatePayload {
  username: string;
  email: string;
  password: string;
  role: Role;
  group: string;
  organization: Organization | '';
}

export interface Brand {
  id: number;
  brand: string;
  white_labeled_brands: { data: string[] };
}

export interface ManufacturerResult {
  id: number;
  manufacturer: string;
}

export interface UploadResult {
  message: string;
  processed: number;
  skipped: number;
  /** At most the first 1000; duplicates_total counts them all. */
  duplicates: { row: number; tracking_id: string }[];
  /** At most the first 1000; errors_total counts them all. */
  errors: { row: number; errors: string[] }[];
  duplicates_total: number;
  errors_total: number;
}

export interface ErrorCatalogueEntry {
  code: string;
  reason: string;
  title: string;
  description: string;
}

// The event stream's events (server feature 'live-events', docs/events.md): what each carries, as
// the server writes it (api/src/events/) and the console reads it (live-events.ts).

/** A change of device records: a batch of an upload stored, or records after a field step. */
export type RecordsEvent =
  | { action: 'uploaded'; count: number; hubs: string[] }
  | { action: 'submitted' | 'verified' | 'detached'; records: DeviceRecord[] };

export interface UsersEvent {
  action: 'created' | 'activated' | 'deactivated';
  username: string;
  role: Role;
}

export interface GroupsEvent {
  action: 'created';
  name: string;
  code: string;
  organization: Organization;
}

export interface LiveEventData {
  records: RecordsEvent;
  users: UsersEvent;
  groups: GroupsEvent;
}

export type LiveEventType = keyof LiveEventData;
