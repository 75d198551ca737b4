/**
 * Where a tab's first event stream resumes (docs/events.md#the-first-stream): the id of the newest
 * event the server had read, told under this name by the page document made for a signed-in viewer
 * (a `<meta>`) and by the answer of a sign-in (a header). Every read made after it shows the
 * events up to it, so a stream resumed after it misses no change made while the page first read.
 */
export const LAST_EVENT_ID_MARK = 'veritas-last-event-id';
