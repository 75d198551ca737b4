// Table types of the query layer. Both engines store booleans as integers 0/1 and times as
// ISO 8601 UTC text, so one set of queries and one row mapping serve SQLite and PostgreSQL.
import type {
  AuditAction,
  AuditActorKind,
  AuditOutcome,
  AuditTargetKind,
  CaseDisposition,
  CaseEventKind,
  CaseReason,
  CaseState,
  Organization,
  Role,
} from '@veritas/shared/domain';
import type { Database as SQLiteDatabase } from 'better-sqlite3';
import type { ColumnType, Generated, IsolationLevel, Kysely, RawBuilder, Transaction } from 'kysely';
import type { Pool, PoolClient } from 'pg';

export type Engine = 'sqlite' | 'postgres';

/** The largest value of a serial id column: a greater one names no row (and PostgreSQL refuses to compare it). */
export const MAX_SERIAL_ID = 2_147_483_647;

/** The serial id `value` names (a number, or text of digits as a path or a form sends it); null when it names no row. */
export function serialIdOf(value: unknown): number | null {
  const id = typeof value === 'number' || typeof value === 'string' ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id >= 1 && id <= MAX_SERIAL_ID ? id : null;
}

/** 0 or 1. */
export type Flag = number;

export interface GroupsTable {
  id: Generated<number>;
  name: string;
  code: string;
  organization: Organization;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  password_hash: string;
  role: Role;
  is_active: ColumnType<Flag, Flag | undefined, Flag>;
  group_id: number | null;
  created_at: string;
}

/** One sign-in: every access and refresh token issued from it belongs to this family. */
export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: string;
  revoked_at: string | null;
}

export interface AuthTokensTable {
  /** SHA-256 of the token; the token itself only lives in the cookie. */
  token_hash: string;
  /** access and refresh: the console's cookies; app: the mobile app's bearer token. */
  kind: 'access' | 'refresh' | 'app';
  session_id: string;
  expires_at: string;
  /** Set when a refresh token has been rotated; presenting it again revokes the family. */
  used_at: string | null;
}

/** A failed sign-in: the client address and the username it was for (src/auth/login-throttle.ts). */
export interface LoginFailuresTable {
  id: Generated<number>;
  client_address: string;
  username: string;
  failed_at: string;
}

export interface DeviceRecordsTable {
  id: Generated<number>;
  tracking_id: string;
  hub_code: string | null;
  /** Kept as received: may be null or not a date at all. */
  created_date: string | null;
  device_type: string | null;
  is_blindpick: Flag;
  blind_brand: string | null;
  blind_model: string | null;
  device_model_name: string | null;
  device_brand: string | null;
  is_submit: Flag;
  submit_time: string | null;
  submitted_by_id: number | null;
  submitted_device_name: string | null;
  submitted_manufacturer: string | null;
  device_result: string | null;
  is_verified: Flag;
  verify_time: string | null;
  verified_by_id: number | null;
  is_verified_rc: Flag;
  verified_by_rc_id: number | null;
  verify_time_rc: string | null;
  is_verified_rc_by: Flag;
  /** The doorstep capture: upper-case hex, 12 digits. */
  mac_address: string | null;
  hardware_id: string | null;
  // Derived from the fields above by derivedColumns (src/writes/derived-columns.ts) on every write:
  // the pick list's order and filters (migration 006). PostgreSQL answers bigint as text.
  /** Milliseconds of the record's timestamp, MISSING_TIME_MS when it has none. */
  sort_ms: ColumnType<number | string, number, number>;
  /** The trimmed hub code lower-cased (JS toLowerCase), or null. */
  hub_key: string | null;
  status_key: StatusKey;
  /** The result the pick list shows ('passed' or an E code), null when it shows none. */
  result_key: string | null;
  /**
   * created_date, submit_time and verify_time as the dashboard reads them (timeMs of
   * @veritas/shared/domain): ms since the epoch, null when missing or not a date; derived too
   * (migration 007). PostgreSQL answers bigint as text.
   */
  created_ms: Ms;
  submit_ms: Ms;
  verify_ms: Ms;
  /** The upload that stored the record and its row there (migration 008); null for records stored otherwise. */
  upload_id: string | null;
  upload_row: number | null;
  /**
   * Where the record's last write stands in commit order, and its time in ms: stamped by the
   * database in every write (src/writes/change-order.ts, migration 022); 0 for records not written
   * since. The records feed pages by them. PostgreSQL answers bigint as text.
   */
  change_order: ColumnType<number | string, never, RawBuilder<number>>;
  changed_ms: ColumnType<number | string, never, RawBuilder<number>>;
}

/** The pick list's status filter values, one per status text (docs/screens.md#status). */
export type StatusKey = 'pending' | 'submitted' | 'verified' | 'detached';

/** How many records have each (hub, status, result); '' stands for no hub or no result. Kept by every write. */
export interface DeviceCountsTable {
  hub_key: string;
  status_key: StatusKey;
  result_key: string;
  total: ColumnType<number | string, number, number>;
}

/** Each hub key and the spelling of its record with the lowest id (the pick list's hub choices). */
export interface DeviceHubsTable {
  hub_key: string;
  hub_code: string;
  first_id: number;
}

/** Each one- and two-character piece of the stored tracking IDs, lower-cased (src/devices/id-grams.ts). */
export interface TrackingIdGramsTable {
  gram: string;
}

/**
 * The tracking-ID search index (src/devices/search-index.ts), one table per engine under one name:
 * on PostgreSQL `id` and `tracking_key` (the lower-cased ID) with a trigram index (migration 014);
 * on SQLite an FTS5 trigram table whose `rowid` is the record's id and whose one column is
 * `tracking_id` (migration 006). A query names its engine's columns.
 */
export interface DeviceSearchTable {
  id: number;
  tracking_key: string;
  rowid: number;
  tracking_id: string;
}

/** How far the search index goes: every record with an id up to `indexed_through` is in it. One row. */
export interface DeviceSearchStateTable {
  indexed_through: number;
}

/** A bigint column of milliseconds (or a bucket number): PostgreSQL's driver reads it as text. */
export type Ms = ColumnType<number | string | null, number | null | undefined, number | null>;
/** A bigint key column, never null. */
export type BigKey = ColumnType<number | string, number, number>;

/**
 * The dashboard's summaries (src/dashboard/dashboard-summaries.ts, docs/dashboard.md#server-side-figures):
 * records counted by the UTC hour (span 1) and the UTC day (span 24) of their created time;
 * `bucket` is the hour number (ms / 3,600,000, floored), for a day the number of its first hour.
 * `hub_code` is the record's, as stored ('' for none).
 */
export interface DashboardCountsTable {
  span: number;
  bucket: BigKey;
  hub_code: string;
  records: number;
  /** is_submit */
  submitted: number;
  /** Submitted and not passed. */
  rejected: number;
  /** Submitted with the result the pie counts: passed, E003 … E010. */
  passed: number;
  e003: number;
  e004: number;
  e005: number;
  e006: number;
  e007: number;
  e008: number;
  e009: number;
  e010: number;
}

/** Submitted records by operator (0: none, or a user deleted since), counted like dashboard_counts. */
export interface DashboardOperatorsTable {
  span: number;
  bucket: BigKey;
  hub_code: string;
  operator_id: number;
  submitted: number;
  rejected: number;
}

/**
 * The daily series: records by created bucket (as dashboard_counts) and by the quarter hour of the
 * time they count on (ms / 900,000, floored): `event` 0 is the submit time (rejected: Rejection at
 * DoorStep, volume: Verified at Doorstep), 1 the verify time (Rejections at Hub, Verified at Hub).
 * Rows with all_hubs 1 (hub_code '') sum every hub.
 */
export interface DashboardSeriesTable {
  all_hubs: Flag;
  hub_code: string;
  span: number;
  bucket: BigKey;
  event: number;
  quarter: BigKey;
  rejected: number;
  volume: number;
}

/** Every hub code records hold ('' for none) and its key: lower-cased as JavaScript does. */
export interface DashboardHubsTable {
  hub_code: string;
  hub_key: string;
}

/** Each MAC address captured at a doorstep, and the tracking ID it was captured for. */
export interface MacCapturesTable {
  mac_address: string;
  tracking_id: string;
  captured_at: string;
}

/** Brands exempt from the manufacturer check (E005/E006); brand_key is the lower-cased name. */
export interface BrandExclusionsTable {
  brand_key: string;
  brand: string;
}

/** A manufacturer of the IEEE OUI registry (loaded by migration 003). */
export interface ManufacturersTable {
  id: Generated<number>;
  manufacturer: string;
  /** manufacturerKey(manufacturer): lower-cased, spaces collapsed; what search matches. */
  manufacturer_key: string;
}

/** An OUI assignment: upper-case hex prefix of 6, 7 or 9 digits (MA-L, MA-M, MA-S). */
export interface OuiPrefixesTable {
  prefix: string;
  manufacturer_id: number;
}

export interface BrandsTable {
  id: Generated<number>;
  brand: string;
  /** Lower-cased trimmed name: brand names are unique case-insensitively. */
  brand_key: string;
}

/** The manufacturers a brand white-labels, in the order the console lists them. */
export interface BrandManufacturersTable {
  brand_id: number;
  position: number;
  manufacturer: string;
}

/** One received chunk of a chunked CSV upload, kept until the upload completes or expires. */
export interface UploadChunksTable {
  upload_id: string;
  chunk_index: number;
  total_chunks: number;
  /** The console user who sent it, or null for an API key's upload (token_id; migration 023). */
  user_id: number | null;
  file_name: string;
  data: Buffer;
  received_at: string;
  token_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** An upload whose chunks are all present: claimed while processing, then its stored result. */
export interface UploadsTable {
  upload_id: string;
  /** Whose upload it is: a console user's, or an API key's (token_id), never both (migration 023). */
  user_id: number | null;
  token_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** An API key's upload: the SHA-256 (hex) of the CSV it stored, which a repeated Idempotency-Key is compared with. */
  body_hash: ColumnType<string | null, string | null | undefined, string | null>;
  file_name: string;
  total_chunks: number;
  status: 'processing' | 'done' | 'failed';
  /** The answer of the final chunk, as JSON, once done; once failed, the error's {status, detail} (migration 016). */
  result: string | null;
  created_at: string;
  finished_at: string | null;
  /** While 'processing': until when the instance ingesting it holds it (ms since the epoch; migration 008). */
  lease_until_ms: ColumnType<number | string | null, number | null | undefined, number | null>;
}

/** What changed, in commit order, kept for the replay window of the event stream (src/events/). */
export interface EventsTable {
  id: ColumnType<number | string, never, never>;
  /** The stream's event name ('records', 'users', 'cases'…), or 'shipments' (src/events/write.ts StoredEventType). */
  type: string;
  /** The event's data, JSON. */
  data: string;
  created_ms: ColumnType<number | string, number, number>;
}

/** A file's bytes in the registry (migration 009), keyed by the sha256 (hex) of the raw bytes. */
export interface RemoteBlobsTable {
  hash: string;
  /** The bytes, gzip-compressed. */
  gzip: Buffer;
  /** Raw bytes. */
  size: BigKey;
  created_ms: BigKey;
}

export type VersionSource = 'registry' | 'external';

/** An immutable version of a remote: 1, 2, 3… per remote. */
export interface RemoteVersionsTable {
  remote: string;
  version: number;
  /** sha256 (hex) of its mf-manifest.json; its first 16 digits name its files' folder. */
  manifest_hash: string;
  /** sha256 (hex) of its files' sorted paths and hashes (external: of the manifest and entry). */
  content_hash: string;
  /** Subresource integrity of the entry script, sha384-… */
  integrity: string;
  /** The @veritas/shared version it was built against ('' when it does not share it). */
  contract: string;
  /** JSON: [{name, requiredVersion}]. */
  shared_json: string;
  /** JSON: the exposed modules, e.g. ["./ListDevices"]. */
  exposes_json: string;
  source: VersionSource;
  /** An external build's https base URL (ending in /), else null. */
  base_url: string | null;
  /** Blob bytes this publish stored that no earlier version had. */
  bytes: BigKey;
  published_by: string;
  published_ms: BigKey;
  note: string | null;
  /** JSON: its remote.json as published (the declaration), or null for a version published before it was kept (migration 017). */
  declaration_json: string | null;
}

export interface RemoteVersionFilesTable {
  remote: string;
  version: number;
  path: string;
  hash: string;
}

/** Which version of a remote the console loads: live, and a canary for a share of users. */
export interface RemoteRolloutsTable {
  remote: string;
  live: number | null;
  canary: number | null;
  canary_percent: number | null;
  updated_ms: BigKey;
}

export type RolloutAction = 'promote' | 'canary' | 'stop-canary' | 'rollback' | 'retire';

export interface RolloutChangesTable {
  id: Generated<number>;
  remote: string;
  action: RolloutAction;
  /** The live version before (promote, rollback, retire), the canary before (canary, stop-canary). */
  from_version: number | null;
  to_version: number | null;
  percent: number | null;
  actor: string;
  created_ms: BigKey;
}

/** A deploy token (src/access-tokens/): what it may do is `scope`, `<capability>:<target>`. */
export interface AccessTokensTable {
  id: Generated<number>;
  label: string;
  /** sha256 (hex) of the secret; the secret itself is shown once. */
  token_hash: string;
  scope: string;
  expires_ms: BigKey;
  created_by: string;
  created_ms: BigKey;
  revoked_ms: Ms;
  last_used_ms: Ms;
  /** When the token's current window of calls began (migration 020); null before its first call. */
  window_start_ms: Ms;
  window_calls: Generated<number>;
}

/** An origin external builds may be served from (and the console's page may load scripts from). */
export interface AllowedOriginsTable {
  origin: string;
  added_by: string;
  added_ms: BigKey;
}

/** One entry of the audit trail (migration 010, src/audit/): append-only, chained by hashes. */
export interface AuditLogTable {
  seq: BigKey;
  created_ms: BigKey;
  actor_kind: AuditActorKind;
  actor_id: string | null;
  actor_name: string;
  actor_role: string | null;
  address: string | null;
  action: AuditAction;
  target_kind: AuditTargetKind | null;
  target_id: string | null;
  target_label: string | null;
  outcome: AuditOutcome;
  /** JSON object, or null. */
  details: string | null;
  prev_hash: string;
  hash: string;
}

/** A flagged device's case (src/cases/, docs/cases.md). */
export interface CasesTable {
  id: Generated<number>;
  tracking_id: string;
  reason: CaseReason;
  state: CaseState;
  disposition: CaseDisposition | null;
  /** The group code of the hub or return centre, in capitals. */
  queue: string;
  assignee_id: number | null;
  due_at: string;
  opened_at: string;
  opened_by_id: number | null;
  scanned_model: string | null;
  scanned_manufacturer: string | null;
  scanned_mac: string | null;
  scanned_hardware_id: string | null;
  resolved_at: string | null;
  updated_at: string;
  version: ColumnType<number, number | undefined, number>;
}

/** One entry of a case's timeline; `details` is JSON text. */
export interface CaseEventsTable {
  id: Generated<number>;
  case_id: number;
  at: string;
  kind: CaseEventKind;
  actor_id: number | null;
  /** The actor when it is no user (migration 021): an API key, `token "<label>"`. */
  actor_name: ColumnType<string | null, string | null | undefined, string | null>;
  note: string | null;
  details: string | null;
}

export interface CasePhotosTable {
  id: Generated<number>;
  case_id: number;
  content_type: string;
  bytes: Buffer;
  size: number;
  added_by_id: number | null;
  added_at: string;
}

export interface CaseDueTimesTable {
  reason: string;
  hours: number;
}

export interface CaseViewsTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  /** JSON text of the filters. */
  filters: string;
  shared_role: Role | null;
  created_at: string;
}

export interface CaseJobsTable {
  id: Generated<number>;
  action: 'assign' | 'resolve';
  /** JSON text: the assignee, or the disposition and note. */
  params: string;
  created_by_id: number;
  created_at: string;
  state: 'running' | 'done';
  total: number;
  done: ColumnType<number, number | undefined, number>;
  skipped: ColumnType<number, number | undefined, number>;
  lease_owner: string | null;
  lease_until_ms: ColumnType<number | string | null, number | null | undefined, number | null>;
  finished_at: string | null;
}

export interface CaseJobItemsTable {
  job_id: number;
  case_id: number;
  outcome: 'changed' | 'skipped' | null;
}

/** A receiver of webhooks (migration 024, docs/webhooks.md). Times in ms; PostgreSQL answers bigint as text. */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  url: string;
  description: string;
  /** The event types it receives, space-separated. */
  event_types: string;
  enabled: Flag;
  disabled_reason: 'admin' | 'gone' | 'failing' | null;
  disabled_ms: Ms;
  /** whsec_…: kept as is, since signing reads it. */
  secret: string;
  previous_secret: string | null;
  previous_expires_ms: Ms;
  failing_since_ms: Ms;
  created_by_id: number | null;
  created_ms: ColumnType<number | string, number, number>;
}

/** A message as sent: its webhook-id, type and body (JSON text). */
export interface WebhookMessagesTable {
  id: string;
  type: string;
  body: string;
  created_ms: ColumnType<number | string, number, number>;
}

/** A message's delivery to one endpoint. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  message_id: string;
  endpoint_id: number;
  state: 'pending' | 'succeeded' | 'failed';
  attempts: ColumnType<number, number | undefined, number>;
  /** When pending: due at; while an attempt is under way, past its timeout. */
  next_attempt_ms: ColumnType<number | string, number, number>;
  created_ms: ColumnType<number | string, number, number>;
}

/** One attempt of a delivery: the status answered (null: none came), its latency and the answer's start. */
export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  at_ms: ColumnType<number | string, number, number>;
  status: number | null;
  latency_ms: number;
  response: string;
}

/** The fan-out's place in the events table (one row). */
export interface WebhookFanOutTable {
  id: number;
  last_event_id: ColumnType<number | string, number, number>;
}

export interface Database {
  groups: GroupsTable;
  users: UsersTable;
  sessions: SessionsTable;
  auth_tokens: AuthTokensTable;
  login_failures: LoginFailuresTable;
  device_records: DeviceRecordsTable;
  device_counts: DeviceCountsTable;
  device_hubs: DeviceHubsTable;
  tracking_id_grams: TrackingIdGramsTable;
  device_search: DeviceSearchTable;
  device_search_state: DeviceSearchStateTable;
  upload_chunks: UploadChunksTable;
  uploads: UploadsTable;
  manufacturers: ManufacturersTable;
  oui_prefixes: OuiPrefixesTable;
  brands: BrandsTable;
  brand_manufacturers: BrandManufacturersTable;
  mac_captures: MacCapturesTable;
  brand_exclusions: BrandExclusionsTable;
  dashboard_counts: DashboardCountsTable;
  dashboard_operators: DashboardOperatorsTable;
  dashboard_series: DashboardSeriesTable;
  dashboard_hubs: DashboardHubsTable;
  events: EventsTable;
  remote_blobs: RemoteBlobsTable;
  remote_versions: RemoteVersionsTable;
  remote_version_files: RemoteVersionFilesTable;
  remote_rollouts: RemoteRolloutsTable;
  rollout_changes: RolloutChangesTable;
  access_tokens: AccessTokensTable;
  allowed_origins: AllowedOriginsTable;
  audit_log: AuditLogTable;
  cases: CasesTable;
  case_events: CaseEventsTable;
  case_photos: CasePhotosTable;
  case_due_times: CaseDueTimesTable;
  case_views: CaseViewsTable;
  case_jobs: CaseJobsTable;
  case_job_items: CaseJobItemsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_messages: WebhookMessagesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_fan_out: WebhookFanOutTable;
}

export interface Db {
  kysely: Kysely<Database>;
  engine: Engine;
  /**
   * SQLite's own handle, for the hot paths that reuse a prepared statement (Kysely prepares each
   * query anew). Use it only while holding a Kysely connection, which keeps other queries out.
   */
  sqlite?: SQLiteDatabase;
  /**
   * For long reads (counts, aggregates), reads only: on SQLite a read-only connection on a thread
   * of its own (sqlite-reads.ts), so the event loop serves other requests meanwhile; on PostgreSQL
   * `kysely` itself, whose queries never hold the loop.
   */
  reads: Kysely<Database>;
  /** PostgreSQL's pool, for what Kysely cannot say (COPY: the report, the bulk loader). */
  pg?: Pool;
  /**
   * `work` in a transaction, its result once committed. Repeated once on a fresh connection when
   * its connection failed before the COMMIT was sent; a failure while committing is not repeated
   * (db/availability.ts DatabaseUnavailable, answered 503). So `work` must do nothing but queries.
   */
  transaction<T>(
    work: (trx: Transaction<Database>) => Promise<T>,
    settings?: { isolationLevel?: IsolationLevel },
  ): Promise<T>;
  /**
   * PostgreSQL: as transaction(), with the client of its connection for what Kysely cannot say
   * (COPY … FROM STDIN: the upload's batches) and a Kysely over that same connection.
   */
  clientTransaction?<T>(work: (client: PoolClient, trx: Kysely<Database>) => Promise<T>): Promise<T>;
  /** false: no audit entry is written (ServerOptions.auditTrail, for the benchmarks that measure its cost). */
  auditTrail?: false;
  /**
   * false: a flagging scan opens no case and a later step writes nothing on one
   * (ServerOptions.caseOpening, for the benchmarks that measure what opening cases costs).
   */
  caseOpening?: false;
}

export const nowIso = (): string => new Date().toISOString();

/** A time kept in milliseconds (a bigint column: PostgreSQL answers it as a string) as an ISO time. */
export function isoOfMs(ms: number | string): string;
export function isoOfMs(ms: number | string | null): string | null;
export function isoOfMs(ms: number | string | null): string | null {
  return ms === null ? null : new Date(Number(ms)).toISOString();
}
