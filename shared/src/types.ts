// The console's names for the shapes of the /veritas API: each request and answer is a TypeBox
// schema of ./api/ (exported by @veritas/shared/domain, which the server validates and answers
// with), and here only its type, so the console's bundles carry no schema code.
import type { LiveEventData } from './api/events';
import type { ServerFeature } from './features';
import type { Role } from './roles';

export { SERVER_FEATURES, type ServerFeature } from './features';

export type { Role } from './roles';
export type { Organization } from './api/users';

export interface Session {
  user: string | null;
  role: Role | null;
  hubCode: string | null;
  /** What the server offers beyond the spec; empty for a server that follows the spec alone. */
  features: readonly ServerFeature[];
  isAuthenticated: boolean;
}

export type { LoginResponse, RoleResponse } from './api/sign-in';
export type { Group, UserCreatePayload, UserListItem } from './api/users';
export type { Brand, ManufacturerResult } from './api/brands';
export type { DeviceRecord, DeviceType, TrackingInfo, UserRef } from './api/devices';
export type { UploadResult } from './api/upload';
export type { DailySeries, DashboardStats, ErrorSlice, RankRow } from './api/dashboard';
export type {
  AuditAction,
  AuditActorKind,
  AuditEntry,
  AuditFilterQuery,
  AuditOutcome,
  AuditPage,
  AuditTargetKind,
  AuditVerification,
} from './api/audit';
export type {
  CaseAssign,
  CaseAssignees,
  CaseCount,
  CaseDetail,
  CaseDueTimes,
  CaseEvent,
  CaseFilters,
  CaseJob,
  CaseList,
  CaseNote,
  CasePage,
  CasePhoto,
  CaseReopen,
  CaseResolve,
  CaseRights,
  CaseScan,
  CasesEvent,
  CaseSummary,
  CaseTotals,
  CaseView,
  CaseViewList,
  NewCaseJob,
  NewCaseView,
} from './api/cases';
export type { GroupsEvent, LiveEventData, RecordsEvent, UsersEvent } from './api/events';
export type {
  AccessToken,
  AccessTokenList,
  AllowedOrigin,
  AllowedOriginList,
  CanaryPayload,
  CreatedToken,
  OriginPayload,
  PromotePayload,
  RemoteDeployment,
  RemoteDeploymentList,
  RemoteEntries,
  RemoteEntry,
  RemotesEvent,
  RemoteVersion,
  RolloutChange,
  RolloutHistoryPage,
  TokenCreatePayload,
  TokenScope,
} from './api/registry';

export interface ErrorCatalogueEntry {
  code: string;
  reason: string;
  title: string;
  description: string;
}

export type LiveEventType = keyof LiveEventData;
