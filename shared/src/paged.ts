// Entry point @veritas/shared/paged: the hook that loads a list a page at a time. Not part of the
// main entry, which the shell loads before its login form: the remotes that page a list bundle it.
export * from './use-paged-resource';
