import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { subscribeLiveEvents, type RemoteRouteName } from '@veritas/shared';
import REMOTES from '@veritas/shared/remotes.json';
import type { ComponentType } from 'react';
import { setEntryIntegrity } from './integrity-plugin';

/** The remotes of the console (@veritas/shared's remotes.json). */
export type RemoteName = keyof typeof REMOTES;

export interface RemotePage {
  /** Module Federation id: '<remote>/<exposed module>'; its default export is the page component. */
  id: `${RemoteName}/${string}`;
  /** How the page is named in loading and error messages. */
  title: string;
}

/** The remote module behind each remote page of the protected layout. */
export const REMOTE_PAGES = Object.fromEntries(
  Object.entries(REMOTES).flatMap(([remote, { pages }]) =>
    Object.entries(pages).map(([route, page]) => [route, { id: `${remote}/${page.module}`, title: page.title }]),
  ),
) as Record<RemoteRouteName, RemotePage>;

/** Default export: an async function that downloads the mobile app package. */
export const DOWNLOAD_APK_MODULE = `data/${REMOTES.data.commands.downloadApk}`;

/** A remote that /remotes.json does not list: not deployed (yet). */
export class RemoteNotDeployedError extends Error {
  constructor(readonly remote: string) {
    super(`The remote "${remote}" is not listed in /remotes.json`);
    this.name = 'RemoteNotDeployedError';
  }
}

/** Where a remote is loaded from, as /remotes.json says for this viewer. */
export interface RemoteLocation {
  /** The absolute URL of its mf-manifest.json. */
  entry: string;
  /** Its registry version, when it comes from the registry. */
  version?: number;
  /** Subresource integrity of its entry script, when known. */
  integrity?: string;
}

type RemoteList = Partial<Record<string, RemoteLocation>>;

/** How long an answer of /remotes.json is used before a navigation to a remote page reads it again. */
export const REMOTE_LIST_MAX_AGE_MS = 60_000;

/** The last answer of /remotes.json and when it arrived. */
let answer: { remotes: RemoteList; at: number } | null = null;
/** A read of /remotes.json under way. */
let reading: Promise<RemoteList> | null = null;
/** A rollout changed since the last answer (live event `remotes`), or the last read failed. */
let stale = false;
/** The manifest URL each remote is registered under with the Module Federation runtime. */
const registered = new Map<string, string>();
/** Remotes whose last load failed: the next attempt starts over instead of reusing cached state. */
const failed = new Set<string>();

/**
 * An `entry` of /remotes.json as an absolute URL: a path is one of the console's own origin
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

/** One remote of /remotes.json: `{entry, version?, integrity?}`, or the older bare manifest URL. */
function readLocation(value: unknown): RemoteLocation | undefined {
  const raw = typeof value === 'string' ? { entry: value } : value;
  if (typeof raw !== 'object' || raw === null || !('entry' in raw) || typeof raw.entry !== 'string') return undefined;
  const entry = resolveEntry(raw.entry);
  if (!entry) return undefined;
  const location: RemoteLocation = { entry };
  if ('version' in raw && typeof raw.version === 'number') location.version = raw.version;
  if ('integrity' in raw && typeof raw.integrity === 'string' && raw.integrity) location.integrity = raw.integrity;
  return location;
}

async function fetchRemoteList(): Promise<RemoteList> {
  const response = await fetch('/remotes.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`/remotes.json answered ${response.status}`);
  const body: unknown = await response.json();
  if (typeof body !== 'object' || body === null) throw new Error('/remotes.json is not an object');
  return Object.fromEntries(Object.entries(body).map(([name, value]) => [name, readLocation(value)]));
}

/** The list is read again at the next navigation to a remote page. */
export function markRemoteListStale(): void {
  stale = true;
}

// A rollout changed (another admin, a pipeline) or events were missed: the next page loads what is live now.
subscribeLiveEvents('remotes', markRemoteListStale);

function isFresh(now = Date.now()): boolean {
  return answer !== null && !stale && reading === null && now - answer.at < REMOTE_LIST_MAX_AGE_MS;
}

function readRemoteList(): Promise<RemoteList> {
  stale = false;
  const current: Promise<RemoteList> = fetchRemoteList().then(
    (remotes) => {
      if (reading === current) {
        answer = { remotes, at: Date.now() };
        reading = null;
      }
      return remotes;
    },
    (error: unknown) => {
      if (reading === current) {
        reading = null;
        stale = true;
      }
      throw error;
    },
  );
  reading = current;
  return current;
}

/** /remotes.json: the answer at hand while fresh, else (or when `refetch`) read again. */
function remoteList(refetch: boolean): Promise<RemoteList> {
  if (reading) return reading;
  if (!refetch && isFresh() && answer) return Promise.resolve(answer.remotes);
  return readRemoteList();
}

/**
 * Where `remote` is, without waiting: known when the list is fresh and the remote's last load did
 * not fail; null when the list must be read (again) first.
 */
export function knownLocation(remote: string): RemoteLocation | null {
  if (failed.has(remote) || !isFresh() || !answer) return null;
  return answer.remotes[remote] ?? null;
}

/** Where `remote` is: from the list at hand while fresh, else after reading /remotes.json again. */
export async function locateRemote(remote: string): Promise<RemoteLocation> {
  try {
    const location = (await remoteList(failed.has(remote)))[remote];
    if (!location) throw new RemoteNotDeployedError(remote);
    return location;
  } catch (error) {
    failed.add(remote);
    throw error;
  }
}

function register(name: string, { entry, integrity }: RemoteLocation, fresh: boolean): void {
  setEntryIntegrity(name, entry, integrity);
  if (!fresh && registered.get(name) === entry) return;
  // force replaces an earlier registration and drops everything the runtime cached for that
  // remote (manifest, entry script, failed attempts), so a retry really loads again and a new
  // version loads from its own manifest. Modules already loaded keep working from their URLs.
  registerRemotes([{ name, entry }], { force: registered.has(name) });
  registered.set(name, entry);
}

/**
 * Load an exposed module of a remote, from `location` or where /remotes.json says. After a
 * failure, the next call for that remote re-reads /remotes.json and re-registers it, so Retry
 * picks up a remote that came back or was deployed meanwhile.
 */
export async function loadRemoteModule<T>(id: string, location?: RemoteLocation): Promise<T> {
  const name = id.slice(0, id.indexOf('/'));
  const where = location ?? (await locateRemote(name));
  const retrying = failed.delete(name);
  try {
    register(name, where, retrying);
    const module = await loadRemote<T>(id);
    if (!module) throw new Error(`${id} could not be loaded`);
    return module;
  } catch (error) {
    failed.add(name);
    throw error;
  }
}

export function loadRemotePage(page: RemotePage, location?: RemoteLocation): Promise<{ default: ComponentType }> {
  return loadRemoteModule<{ default: ComponentType }>(page.id, location);
}

/** The remote a page is loaded from. */
export function remoteOf(page: RemotePage): RemoteName {
  return page.id.slice(0, page.id.indexOf('/')) as RemoteName;
}

/** The Download APK menu command (docs/screens.md#download-apk); a failure is only logged. */
export async function downloadApk(): Promise<void> {
  try {
    const { default: download } = await loadRemoteModule<{ default: () => Promise<void> }>(DOWNLOAD_APK_MODULE);
    await download();
  } catch (error) {
    console.error('APK download failed', error);
  }
}
