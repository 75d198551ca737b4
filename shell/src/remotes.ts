import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { RouteName } from '@veritas/shared';
import REMOTES from '@veritas/shared/remotes.json';
import type { ComponentType } from 'react';

/** The remotes of the console (@veritas/shared's remotes.json). */
export type RemoteName = keyof typeof REMOTES;

export interface RemotePage {
  /** Module Federation id: '<remote>/<exposed module>'; its default export is the page component. */
  id: `${RemoteName}/${string}`;
  /** How the page is named in loading and error messages. */
  title: string;
}

/** The remote module behind each page of the protected layout. */
export const REMOTE_PAGES = Object.fromEntries(
  Object.entries(REMOTES).flatMap(([remote, { pages }]) =>
    Object.entries(pages).map(([route, page]) => [route, { id: `${remote}/${page.module}`, title: page.title }]),
  ),
) as Record<RouteName, RemotePage>;

/** Default export: an async function that downloads the mobile app package. */
export const DOWNLOAD_APK_MODULE = `data/${REMOTES.data.commands.downloadApk}`;

/** A remote that /remotes.json does not list: not deployed (yet). */
export class RemoteNotDeployedError extends Error {
  constructor(readonly remote: string) {
    super(`The remote "${remote}" is not listed in /remotes.json`);
    this.name = 'RemoteNotDeployedError';
  }
}

/** /remotes.json: remote name → URL of its mf-manifest.json. */
type RemoteList = Partial<Record<string, string>>;

let remoteList: Promise<RemoteList> | null = null;
/** The manifest URL each remote is registered under with the Module Federation runtime. */
const registered = new Map<string, string>();
/** Remotes whose last load failed: the next attempt starts over instead of reusing cached state. */
const failed = new Set<string>();

async function fetchRemoteList(): Promise<RemoteList> {
  const response = await fetch('/remotes.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`/remotes.json answered ${response.status}`);
  return (await response.json()) as RemoteList;
}

function remotes(refetch: boolean): Promise<RemoteList> {
  if (refetch || !remoteList) {
    remoteList = fetchRemoteList().catch((error: unknown) => {
      remoteList = null;
      throw error;
    });
  }
  return remoteList;
}

function register(name: string, entry: string, fresh: boolean): void {
  if (!fresh && registered.get(name) === entry) return;
  // force replaces an earlier registration and drops everything the runtime cached for that
  // remote (manifest, entry script, failed attempts), so a retry really loads again.
  registerRemotes([{ name, entry }], { force: registered.has(name) });
  registered.set(name, entry);
}

/**
 * Load an exposed module of a remote located through /remotes.json. After a failure, the next
 * call for that remote re-reads /remotes.json and re-registers it, so Retry picks up a remote
 * that came back or was deployed meanwhile.
 */
export async function loadRemoteModule<T>(id: string): Promise<T> {
  const name = id.slice(0, id.indexOf('/'));
  const retrying = failed.delete(name);
  try {
    const entry = (await remotes(retrying))[name];
    if (!entry) throw new RemoteNotDeployedError(name);
    register(name, entry, retrying);
    const module = await loadRemote<T>(id);
    if (!module) throw new Error(`${id} could not be loaded`);
    return module;
  } catch (error) {
    failed.add(name);
    throw error;
  }
}

export function loadRemotePage(page: RemotePage): Promise<{ default: ComponentType }> {
  return loadRemoteModule<{ default: ComponentType }>(page.id);
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
