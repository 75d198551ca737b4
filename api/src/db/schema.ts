// Table types of the query layer. Both engines store booleans as integers 0/1 and times as
// ISO 8601 UTC text, so one set of queries and one row mapping serve SQLite and PostgreSQL.
import type { ColumnType, Generated, Kysely } from 'kysely';

export type Engine = 'sqlite' | 'postgres';

/** 0 or 1. */
export type Flag = number;

export interface GroupsTable {
  id: Generated<number>;
  name: string;
  code: string;
  organization: 'hub' | 'RC';
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  password_hash: string;
  role: string;
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
  kind: 'access' | 'refresh';
  session_id: string;
  expires_at: string;
  /** Set when a refresh token has been rotated; presenting it again revokes the family. */
  used_at: string | null;
}

export interface LoginFailuresTable {
  id: Generated<number>;
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
}

export interface Database {
  groups: GroupsTable;
  users: UsersTable;
  sessions: SessionsTable;
  auth_tokens: AuthTokensTable;
  login_failures: LoginFailuresTable;
  device_records: DeviceRecordsTable;
}

export interface Db {
  kysely: Kysely<Database>;
  engine: Engine;
}

export const nowIso = (): string => new Date().toISOString();
