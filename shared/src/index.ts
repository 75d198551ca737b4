// Public surface of @veritas/shared: one module graph, shared as a singleton by the shell and every remote.
export { SERVER_FEATURES } from './types';
export type * from './types';
export * from './session';
export * from './http';
export * from './queries';
export * from './live-events';
export * from './roles';
export * from './errors';
export * from './toast';
export * from './records';
export * from './format';
export * from './ui/search-select';
export * from './ui/modal';
export * from './ui/busy-button';
export * from './ui/load-failed';
export * from './ui/list-count';
export * from './ui/focus-heading';
// The password rule is not exported here: its list of common passwords would weigh on the login
// page. Forms import it from @veritas/shared/domain; PasswordDialog loads it on first use.
export * from './ui/password-dialog';
// The dashboard's figures (dashboard-stats, zone-calendar) are not exported here either: the shell
// loads this entry before its login form, and only the dashboard and the API count them, through
// @veritas/shared/domain. Nor is TanStack Query: the signed-in layout and the remotes import it
// from @veritas/shared/query.
export * from './ui/scroll-region';
export * from './ui/login-form';
export * from './ui/standalone-app';
export * from './router';
export * from './document-title';
export * from './composition';
export type * from './api/composition';
export type * from './slots';
export { SLOT_CONTRACTS, SHELL_MENUS } from './slots';
