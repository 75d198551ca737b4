/**
 * Calls a server offers beyond the spec's (docs/architecture.md#server-features), learnt from
 * user/get_role/: 'device-pages' (the pick list a page at a time), 'dashboard-figures' (the
 * dashboard's figures computed by the server) and 'live-events' (api/events/, the stream of changes
 * that keeps open pages current: docs/events.md). Without them the console reads api/get_status/
 * and changes only when reloaded.
 */
export type ServerFeature = 'device-pages' | 'dashboard-figures' | 'live-events';

export const SERVER_FEATURES: readonly ServerFeature[] = ['device-pages', 'dashboard-figures', 'live-events'];
