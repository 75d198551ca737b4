/**
 * The name of the page document's `<meta>` whose content is the id of the newest event the server
 * had read when it made the document (docs/events.md#the-first-stream): every read of the page
 * comes after it, so a tab's first stream resumes there and misses no change made meanwhile.
 */
export const LAST_EVENT_ID_META = 'veritas-last-event-id';
