// Loading remotes' modules (docs/architecture.md#locating-remotes): where each remote is comes from
// the composition (composition.ts); a remote is registered with the federation runtime under that
// entry, anew when it changed, and a module is loaded through it (pages, menu commands, the
// extensions of slots).
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import {
  provideModuleLoader,
  useComposition,
  type ComposedMenuEntry,
  type ComposedPage,
  type Composition,
  type RemoteEntry,
} from '@veritas/shared';
import type { ComponentType } from 'react';
import { setUsedModules } from './compatibility-plugin';
import { freshComposition, isCompositionFresh } from './composition';
import { setEntryIntegrity } from './integrity-plugin';

/** A remote the composition does not list: not deployed (yet), or not for this viewer. */
export class RemoteNotDeployedError extends Error {
  constructor(readonly remote: string) {
    super(`The remote "${remote}" is not listed in /remotes.json`);
    this.name = 'RemoteNotDeployedError';
  }
}

/**
 * How long a module of a remote may take to load (manifest, entry script, chunks) before the load
 * fails: a remote whose server takes the connection and never answers would otherwise leave its
 * page 'Loading …' for good, as a fetch has no limit of its own. 20 s is the federation runtime's
 * own limit for an entry script; a page's code takes a few seconds at most on a slow connection.
 */
export const REMOTE_LOAD_LIMIT_MS = 20_000;

/** A load of a remote's module that did not end within REMOTE_LOAD_LIMIT_MS. */
export class RemoteLoadTimeoutError extends Error {
  constructor(readonly id: string) {
    super(`${id} did not load within ${REMOTE_LOAD_LIMIT_MS / 1000} s`);
    this.name = 'RemoteLoadTimeoutError';
  }
}

/** The manifest URL each remote is registered under with the Module Federation runtime. */
const registered = new Map<string, string>();
/** Remotes whose last load failed: the next attempt starts over instead of reusing cached state. */
const failed = new Set<string>();

/** Module Federation's id of a remote's exposed module ('./ListDevices'): 'devices/ListDevices'. */
export function moduleId(remote: string, module: string): string {
  return `${remote}/${module.replace(/^\.\//, '')}`;
}

/** The id of a page's module; its default export is the page component. */
export const pageId = (page: ComposedPage) => moduleId(page.remote, page.module);

/**
 * Where `remote` is, without waiting: known when the composition is fresh and the remote's last
 * load did not fail; null when the composition must be read (again) first.
 */
export function knownLocation(remote: string): RemoteEntry | null {
  const { composition } = useComposition.getState();
  if (failed.has(remote) || !composition || !isCompositionFresh()) return null;
  return composition.remotes[remote] ?? null;
}

/** Where `remote` is: from the composition while fresh, else after reading /remotes.json again. */
export async function locateRemote(remote: string): Promise<RemoteEntry> {
  try {
    const location = (await freshComposition(failed.has(remote))).remotes[remote];
    if (!location) throw new RemoteNotDeployedError(remote);
    return location;
  } catch (error) {
    failed.add(remote);
    throw error;
  }
}

/** The modules of `remote` that `composition` loads: the load-time check wants each exposed. */
function usedModules(composition: Composition | null, remote: string): string[] {
  if (!composition) return [];
  const { pages, menus, extensions } = composition;
  return [
    ...pages.filter((page) => page.remote === remote).map((page) => page.module),
    ...menus.flatMap((entry) => (entry.remote === remote && entry.command ? [entry.command] : [])),
    ...extensions.filter((extension) => extension.remote === remote).map((extension) => extension.module),
  ];
}

function register(name: string, { entry, integrity }: RemoteEntry, fresh: boolean): void {
  setEntryIntegrity(name, entry, integrity);
  setUsedModules(name, usedModules(useComposition.getState().composition, name));
  if (!fresh && registered.get(name) === entry) return;
  // force replaces an earlier registration and drops everything the runtime cached for that
  // remote (manifest, entry script, failed attempts), so a retry really loads again and a new
  // version loads from its own manifest. Modules already loaded keep working from their URLs.
  registerRemotes([{ name, entry }], { force: registered.has(name) });
  registered.set(name, entry);
}

/** `load`, or a RemoteLoadTimeoutError once REMOTE_LOAD_LIMIT_MS have passed without its answer. */
function withinLoadLimit<T>(load: Promise<T>, id: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RemoteLoadTimeoutError(id)), REMOTE_LOAD_LIMIT_MS);
  });
  return Promise.race([load, limit]).finally(() => clearTimeout(timer));
}

/**
 * Takes out of the document the scripts of the remote at `manifest` still loading (a finished one
 * is removed once run): webpack and the runtime join a script element of the same URL already
 * there, so a new load would wait on the hung one rather than ask the server again.
 */
function dropPendingScripts(manifest: string): void {
  const folder = new URL('.', manifest).href;
  for (const script of document.querySelectorAll<HTMLScriptElement>('script[src]')) {
    if (script.src.startsWith(folder)) script.remove();
  }
}

/**
 * Load an exposed module of a remote, from `location` or where the composition says. After a
 * failure, or a load past REMOTE_LOAD_LIMIT_MS, the next call for that remote re-reads
 * /remotes.json and re-registers it, dropping what the runtime holds of the load before (a hung
 * one included), so Retry picks up a remote that came back or was deployed meanwhile.
 */
export async function loadRemoteModule<T>(id: string, location?: RemoteEntry): Promise<T> {
  const name = id.slice(0, id.indexOf('/'));
  const where = location ?? (await locateRemote(name));
  const retrying = failed.delete(name);
  try {
    register(name, where, retrying);
    const module = await withinLoadLimit(loadRemote<T>(id), id);
    if (!module) throw new Error(`${id} could not be loaded`);
    return module;
  } catch (error) {
    failed.add(name);
    if (error instanceof RemoteLoadTimeoutError) dropPendingScripts(where.entry);
    throw error;
  }
}

export function loadRemotePage(page: ComposedPage, location?: RemoteEntry): Promise<{ default: ComponentType }> {
  return loadRemoteModule<{ default: ComponentType }>(pageId(page), location);
}

// Slots load their extensions the way pages load.
provideModuleLoader((remote, module) => loadRemoteModule(moduleId(remote, module)));

/** A menu entry's command: its module's default export, run; a failure is only logged (as Download APK's, docs/screens.md#download-apk). */
export async function runCommand({ remote, command, label }: ComposedMenuEntry): Promise<void> {
  try {
    if (!command) throw new Error(`${label} names no command`);
    const { default: run } = await loadRemoteModule<{ default: () => Promise<void> }>(moduleId(remote, command));
    await run();
  } catch (error) {
    console.error(`${label} failed`, error);
  }
}
