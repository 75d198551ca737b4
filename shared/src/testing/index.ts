// Test support for the shell and every remote (entry point @veritas/shared/testing).
export * from './mockApi';
export { makeRecord } from './records';
export * from './eventSource';
