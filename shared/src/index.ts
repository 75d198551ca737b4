// Public surface of @veritas/shared: one module graph, shared as a singleton by the shell and every remote.
export * from './types';
export * from './session';
export * from './http';
export * from './roles';
export * from './errors';
export * from './toast';
export * from './records';
export * from './format';
export * from './ui/SearchSelect';
export * from './ui/Modal';
export * from './ui/ScrollRegion';
export * from './ui/LoginForm';
export * from './ui/StandaloneApp';
export * from './router';
