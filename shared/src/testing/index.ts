// Test support for the shell and every remote (entry point @veritas/shared/testing).
export * from './mock-api';
export { makeRecord } from './records';
export * from './event-source';
export * from './query';
export { deferred } from './deferred';
