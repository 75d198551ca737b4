// The live event stream (docs/architecture.md#live-events): the connection, the React hooks and
// the helpers of the pages that follow it.
export * from './live/connection';
export * from './live/hooks';
export * from './live/utils';
