// The part of @veritas/shared without React or the DOM: API shapes, roles, the device error
// catalogue, record display rules, the dashboard's figures and the password rule. The API server
// imports this entry point, so the console and the server apply one rule, not two copies of it.
export * from './types';
export * from './roles';
export * from './errors';
export * from './records';
export * from './dashboard-stats';
export * from './zone-calendar';
export * from './password-rule';
