// The console's composition at run time (docs/architecture.md#composition): the shell keeps what
// the server composed for the viewer here, and any page renders the extensions of a slot it offers
// with <Slot>. Loading a remote's module is the shell's business (the federation runtime, with the
// registry's locations and integrity): it provides the loader once it starts.
import { Component, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { ComposedExtension, Composition } from './api/composition';
import type { SlotName, SlotProps } from './slots';

/** Loads a remote's exposed module ('./Tile') and answers the module. */
export type ModuleLoader = (remote: string, module: string) => Promise<unknown>;

interface CompositionState {
  /** The composition for the signed-in viewer; null until the shell has one. */
  composition: Composition | null;
  loadModule: ModuleLoader | null;
}

// Kept under a global key, like the session store: a second copy of this package sees the same one.
const storeKey = Symbol.for('veritas.composition');
const registry = globalThis as typeof globalThis & { [storeKey]?: UseBoundStore<StoreApi<CompositionState>> };
export const useComposition: UseBoundStore<StoreApi<CompositionState>> = (registry[storeKey] ??=
  create<CompositionState>()(() => ({ composition: null, loadModule: null })));

export function setComposition(composition: Composition): void {
  useComposition.setState({ composition });
}

/** The shell's loader of remote modules, for every slot. */
export function provideModuleLoader(loadModule: ModuleLoader): void {
  useComposition.setState({ loadModule });
}

type Loaded = { default: ComponentType<never> };

/** How logs name an extension: Module Federation's id of its module, e.g. 'devices/DetailsSection'. */
const extensionId = ({ remote, module }: ComposedExtension) => `${remote}/${module.replace(/^\.\//, '')}`;
/** One load per extension and remote entry (a new version of the remote loads anew). */
const loads = new Map<string, Promise<Loaded>>();

function loadExtension(loadModule: ModuleLoader, extension: ComposedExtension, entry: string): Promise<Loaded> {
  const key = `${extensionId(extension)} ${entry}`;
  let load = loads.get(key);
  if (!load) {
    load = loadModule(extension.remote, extension.module).then((module) => {
      const component = (module as Partial<Loaded> | null)?.default;
      if (typeof component !== 'function' && typeof component !== 'object') {
        throw new Error(`${extensionId(extension)} has no default export to render`);
      }
      return module as Loaded;
    });
    // A failed load is tried again at the slot's next mount.
    load.catch(() => loads.delete(key));
    loads.set(key, load);
  }
  return load;
}

/** An extension that throws while rendering renders nothing: the host page goes on. */
class ExtensionBoundary extends Component<{ name: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error(`The extension ${this.props.name} failed`, error);
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

function Extension<S extends SlotName>({ extension, props }: { extension: ComposedExtension; props: SlotProps[S] }) {
  const loadModule = useComposition((s) => s.loadModule);
  const entry = useComposition((s) => s.composition?.remotes[extension.remote]?.entry ?? '');
  const [loaded, setLoaded] = useState<{ key: string; Render: ComponentType<SlotProps[S]> } | null>(null);
  const key = `${extensionId(extension)} ${entry}`;
  useEffect(() => {
    if (!loadModule || !entry) return;
    let current = true;
    loadExtension(loadModule, extension, entry).then(
      (module) => current && setLoaded({ key, Render: module.default as ComponentType<SlotProps[S]> }),
      (error: unknown) => console.error(`The extension ${extensionId(extension)} could not be loaded`, error),
    );
    return () => {
      current = false;
    };
  }, [loadModule, extension, entry, key]);
  // Nothing while it loads: the host paints without waiting for it.
  if (!loaded || loaded.key !== key) return null;
  const { Render } = loaded;
  return <Render {...props} />;
}

/**
 * Renders the extensions the composition has for slot `name`, in their declared order, each with
 * `props` (the slot's contract, SlotProps). One that cannot be loaded or throws renders nothing.
 */
export function Slot<S extends SlotName>({ name, props }: { name: S; props: SlotProps[S] }) {
  const extensions = useComposition((s) => s.composition?.extensions);
  const remotes = useComposition((s) => s.composition?.remotes);
  const inSlot = (extensions ?? []).filter((extension) => extension.slot === name);
  if (inSlot.length === 0) return null;
  return (
    <>
      {inSlot.map((extension) => {
        const id = extensionId(extension);
        // Keyed by entry too: a new version of a contribution that failed gets its chance.
        return (
          <ExtensionBoundary key={`${id} ${remotes?.[extension.remote]?.entry}`} name={id}>
            <Extension extension={extension} props={props} />
          </ExtensionBoundary>
        );
      })}
    </>
  );
}
