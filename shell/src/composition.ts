// Where the shell's composition comes from (docs/architecture.md#locating-remotes): what the server
// composed for the viewer (remote locations, pages, menu entries, extensions), kept in
// @veritas/shared's composition store. The page document carries one inlined, so a page load
// routes and loads its page without asking; GET /remotes.json answers it again when it may have
// changed (a rollout, 60 s, a failure, Retry) or was made for someone else (a sign-in since).
import {
  checkLoggedIn,
  setComposition,
  subscribeLiveEvents,
  useComposition,
  useSession,
  type COMPOSITION_ELEMENT_ID,
  type Composition,
  type RemoteEntry,
} from '@veritas/shared';
import { useEffect, useState } from 'react';

// The id's value is not imported: that module carries the API's schemas, kept off the shell's
// first load. Typed by it, so the two cannot drift apart.
const ELEMENT_ID: typeof COMPOSITION_ELEMENT_ID = 'veritas-composition';

/** How long a composition is used before a navigation reads /remotes.json again. */
export const COMPOSITION_MAX_AGE_MS = 60_000;

/**
 * How long a read of /remotes.json may take, as a remote's load may (REMOTE_LOAD_LIMIT_MS): a read
 * that never ends would be joined by every later one, Retry's included, for good.
 */
export const COMPOSITION_READ_LIMIT_MS = 20_000;

/** When the composition in the store arrived. */
let arrivedAt = 0;
/** A read of /remotes.json under way. */
let reading: Promise<Composition> | null = null;
/** A rollout changed since the composition arrived (live event `remotes`), or the last read failed. */
let stale = false;

/**
 * An `entry` of the composition as an absolute URL: a path is one of the console's own origin
 * (never of the page's path or of anything else); only http(s) is accepted.
 */
export function resolveEntry(entry: string): string | null {
  let url: URL;
  try {
    url = new URL(entry, window.location.origin);
  } catch {
    return null;
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A remote's location with its entry made absolute; none when the entry is not a URL we load from. */
function readLocation(value: unknown): [] | [RemoteEntry] {
  if (!isObject(value) || typeof value.entry !== 'string') return [];
  const entry = resolveEntry(value.entry);
  if (!entry) return [];
  const location: RemoteEntry = { entry };
  if (typeof value.version === 'number') location.version = value.version;
  if (typeof value.integrity === 'string' && value.integrity) location.integrity = value.integrity;
  return [location];
}

/**
 * `value` read as a composition, or null when it is not one. The server's schema shapes it: only
 * its frame is checked, and the remotes' entries are resolved once here.
 */
export function readComposition(value: unknown): Composition | null {
  if (!isObject(value) || !isObject(value.remotes)) return null;
  const { viewer, pages, menus, extensions, unavailable } = value;
  if (viewer !== null && typeof viewer !== 'string') return null;
  if (![pages, menus, extensions, unavailable].every(Array.isArray)) return null;
  const remotes = Object.fromEntries(
    Object.entries(value.remotes).flatMap(([name, location]) => readLocation(location).map((l) => [name, l])),
  );
  return { ...(value as Composition), remotes };
}

function take(composition: Composition): void {
  arrivedAt = Date.now();
  setComposition(composition);
}

/** The composition the server inlined in the page document, when there is a valid one. */
function inlinedComposition(): Composition | null {
  const text = document.getElementById(ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    return readComposition(JSON.parse(text));
  } catch {
    return null;
  }
}

// A page load starts with the document's composition: no request before the page's code loads.
const inlined = inlinedComposition();
if (inlined) take(inlined);

/** Whether `composition` was made for `user`, who is signed in (anyone's, while the role is unknown). */
function madeFor(composition: Composition, user: string | null): boolean {
  return user === null || composition.viewer === user;
}

const madeForViewer = (composition: Composition) => madeFor(composition, useSession.getState().user);

async function fetchComposition(): Promise<Composition> {
  const response = await fetch('/remotes.json', {
    cache: 'no-cache',
    signal: AbortSignal.timeout(COMPOSITION_READ_LIMIT_MS),
  });
  if (!response.ok) throw new Error(`/remotes.json answered ${response.status}`);
  const composition = readComposition(await response.json());
  if (!composition) throw new Error('/remotes.json did not answer a composition');
  return composition;
}

/** /remotes.json for the signed-in user. */
async function fetchForViewer(): Promise<Composition> {
  const composition = await fetchComposition();
  if (madeForViewer(composition)) return composition;
  // Made for nobody while someone is signed in: the access cookie had expired. Checking the
  // session renews it (the http client refreshes on that 401); then the server knows the user.
  await checkLoggedIn();
  const renewed = await fetchComposition();
  if (madeForViewer(renewed)) return renewed;
  // Never someone else's pages under this user's name.
  throw new Error(`/remotes.json answered for ${renewed.viewer ?? 'nobody'}, not for the signed-in user`);
}

/** Reads /remotes.json (joining a read under way) and takes its answer. */
export function refreshComposition(): Promise<Composition> {
  if (reading) return reading;
  stale = false;
  const current = fetchForViewer().then(
    (composition) => {
      reading = null;
      // A rollout announced during the read may not be in it: `stale` stays as the event left it.
      take(composition);
      return composition;
    },
    (error: unknown) => {
      reading = null;
      stale = true;
      throw error;
    },
  );
  reading = current;
  return current;
}

/** The composition is read again at the next navigation. */
export function markCompositionStale(): void {
  stale = true;
}

// A rollout changed (another admin, a pipeline) or events were missed: the next page shows what is live now.
subscribeLiveEvents('remotes', markCompositionStale);

/** Whether the composition at hand may be used as it is: no newer one is known of or under way. */
export function isCompositionFresh(now = Date.now()): boolean {
  return (
    useComposition.getState().composition !== null &&
    !stale &&
    reading === null &&
    now - arrivedAt < COMPOSITION_MAX_AGE_MS
  );
}

/** The composition: the one at hand while fresh, else (or when `refetch`) read again. */
export function freshComposition(refetch = false): Promise<Composition> {
  const { composition } = useComposition.getState();
  if (!refetch && composition && isCompositionFresh()) return Promise.resolve(composition);
  return refreshComposition();
}

/**
 * The composition for the signed-in user, read when the one at hand was made for someone else
 * (a sign-in since the document was made, or its access cookie had expired); null until then, and
 * `failed` when that read failed, until `retry`.
 */
export function useViewerComposition(): { composition: Composition | null; failed: boolean; retry(): void } {
  const signedIn = useSession((s) => s.isAuthenticated);
  const user = useSession((s) => s.user);
  const composition = useComposition((s) => s.composition);
  const ready = composition !== null && madeFor(composition, user);
  const [attempt, setAttempt] = useState(0);
  // The read that failed, by user and attempt: another user's or a retry's read is not failed yet.
  const [failedRead, setFailedRead] = useState<string | null>(null);
  const read = `${attempt} ${user}`;
  // Run again when a composition arrives that is still not this user's: a read already under way
  // (joined here) may have been asked before the sign-in.
  useEffect(() => {
    if (!signedIn || ready) return;
    let current = true;
    refreshComposition().catch(() => current && setFailedRead(read));
    return () => {
      current = false;
    };
  }, [signedIn, ready, read, composition]);
  return {
    composition: ready ? composition : null,
    failed: !ready && failedRead === read,
    retry: () => setAttempt((n) => n + 1),
  };
}
