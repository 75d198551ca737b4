// The part of @veritas/shared without React or the DOM: API shapes, roles, the device error
// catalogue, record display rules, the dashboard's figures and the password rule. The API server
// imports this entry point, so the console and the server apply one rule, not two copies of it.
// The TypeBox schemas of every call (./api/) are exported here only: the console's main entry
// re-exports their types, never their code.
export {
  SERVER_FEATURES,
  type ErrorCatalogueEntry,
  type LiveEventType,
  type Organization,
  type Role,
  type ServerFeature,
  type Session,
} from './types';
export * from './roles';
export * from './case-rights';
export * from './errors';
export * from './records';
export * from './dashboard-stats';
export * from './zone-calendar';
export * from './calendar-day';
export * from './password-rule';
export * from './api/fields';
export * from './api/form-check';
export * from './api/sign-in';
export * from './api/users';
export * from './api/brands';
export * from './api/devices';
export * from './api/dashboard';
export * from './api/upload';
export * from './api/report';
export * from './api/files';
export * from './api/mobile-app';
export * from './api/health';
export * from './api/events';
export * from './api/registry';
export * from './api/integrations';
export * from './api/records-feed';
export * from './api/webhooks';
export * from './api/composition';
export * from './api/protocol';
export { acceptPattern } from './accept-pattern';
export { LAST_EVENT_ID_MARK } from './live/last-event-id';
export * from './slots';
export * from './api/audit';
export * from './api/cases';
export * from './remote-compatibility';
