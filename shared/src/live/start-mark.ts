// Where a session's event stream resumes before it has received any event
// (docs/events.md#the-first-stream). Not exported by the package: the stream's connection and the
// login form, both within it, are its only users.
import { LAST_EVENT_ID_MARK } from './last-event-id';

/** An event id as the server writes it. */
const isEventId = (value: unknown): value is string => typeof value === 'string' && /^\d+$/.test(value);

/**
 * Where the next stream opened without an id resumes: the page document's mark (a `<meta>` named
 * LAST_EVENT_ID_MARK, made for a signed-in viewer), replaced by a sign-in's. undefined: the
 * document's not read yet.
 */
let startMark: string | null | undefined;

/** The mark, once: a later stream without an id (after a sign-out) must not replay from an old one. */
export function takeStartMark(): string | null {
  const mark =
    startMark === undefined
      ? (document.querySelector<HTMLMetaElement>(`meta[name="${LAST_EVENT_ID_MARK}"]`)?.content ?? null)
      : startMark;
  startMark = null;
  return isEventId(mark) ? mark : null;
}

/**
 * A sign-in answered: its header LAST_EVENT_ID_MARK (`value`, none from a server without live
 * events) is where the stream of the session resumes, instead of the page document's mark.
 */
export function markSignIn(value: unknown): void {
  startMark = isEventId(value) ? value : null;
}
