// Public surface of @veritas/shared: one module graph, shared as a singleton by the shell and every remote.
export { SERVER_FEATURES } from './types';
export type * from './types';
export * from './session';
export * from './http';
export * from './use-resource';
export * from './live-events';
export * from './roles';
export * from './errors';
export * from './toast';
export * from './records';
export * from './dashboard-stats';
export * from './zone-calendar';
export * from './format';
export * from './ui/search-select';
export * from './ui/modal';
// The password rule is not exported here: its list of common passwords would weigh on the login
// page. Forms import it from @veritas/shared/domain; PasswordDialog loads it on first use.
export * from './ui/password-dialog';
// usePagedResource is not exported here either: the shell loads this entry before its login form,
// and only the remotes that page a list need it. They import it from @veritas/shared/paged.
export * from './ui/scroll-region';
export * from './ui/login-form';
export * from './ui/standalone-app';
export * from './router';
