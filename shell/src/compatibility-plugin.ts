// Module Federation runtime plugin of the shell (webpack.config.cjs, runtimePlugins): each remote's
// mf-manifest.json is checked, when it is loaded, against what this console provides (the gate of
// @veritas/shared/remote-compatibility, the rule the registry applies at publish and promote). A
// build that cannot run here fails to load, so its page shows the error card rather than half
// working (docs/architecture.md#loading-error-card-and-retry). The gate (and semver with it) loads
// on first use, outside the shell's first load: asked for as a remote's load starts, it comes in
// with the manifest instead of after it. It is in the shell's first load: keep it small.
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

type LoadRemoteSnapshot = NonNullable<ModuleFederationRuntimePlugin['loadRemoteSnapshot']>;
type SnapshotArgs = Parameters<LoadRemoteSnapshot>[0];

/**
 * What this console provides its remotes: each shared package of the federation instance's own
 * configuration (the shell's build), with the version it provides.
 */
export function providedShared(options: SnapshotArgs['options']): Record<string, string> {
  const provided: Record<string, string> = {};
  for (const [name, offers] of Object.entries(options.shared ?? {})) {
    const own = offers.find((offer) => offer.from === options.name) ?? offers[0];
    if (own?.version) provided[name] = own.version;
  }
  return provided;
}

/** Per remote: the exposed modules the composition loads from it, which its build must expose. */
const used = new Map<string, readonly string[]>();

/** What the composition uses of `remote` (src/remotes.ts calls it when it registers the remote). */
export function setUsedModules(remote: string, modules: readonly string[]): void {
  used.set(remote, modules);
}

const loadGate = () => import('@veritas/shared/remote-compatibility');

export default function compatibilityPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'veritas-remote-compatibility',
    beforeRequest(args) {
      // A failure here shows when the manifest is checked, which loads the gate again.
      loadGate().catch(() => {});
      return args;
    },
    async loadRemoteSnapshot(args) {
      // A snapshot from the global store (no manifest read now) was checked when it was read.
      if (!args.manifestJson) return args;
      const { compatibilityProblems, IncompatibleRemoteError } = await loadGate();
      const remote = args.moduleInfo.name;
      const problems = compatibilityProblems(remote, args.manifestJson, providedShared(args.options), used.get(remote));
      if (problems.length > 0) throw new IncompatibleRemoteError(remote, problems);
      return args;
    },
  };
}
