// Module Federation runtime plugin of the shell (webpack.config.cjs, runtimePlugins): a remote whose
// /remotes.json entry gives `integrity` has its entry script loaded with that integrity and
// crossorigin="anonymous", so the browser runs it only if its bytes are the published ones
// (docs/architecture.md#loading-error-card-and-retry). It is in the shell's first load: keep it small.
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/** Per remote: the manifest URL it is registered under, and its entry script's integrity. */
const expected = new Map<string, { manifest: string; integrity: string }>();

/** What /remotes.json gave for `remote` (src/remotes.ts calls it when it registers the remote). */
export function setEntryIntegrity(remote: string, manifest: string, integrity: string | undefined): void {
  if (integrity) expected.set(remote, { manifest, integrity });
  else expected.delete(remote);
}

export default function integrityPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'veritas-entry-integrity',
    createScript({ url, remoteInfo }) {
      const wanted = remoteInfo && expected.get(remoteInfo.name);
      // Only the entry script: the runtime also preloads a page's chunks through this hook, with
      // the same remoteInfo. After the manifest is read, remoteInfo.entry is the entry script's
      // URL (the manifest's publicPath + remoteEntry) and remoteInfo.version the manifest's URL.
      if (!wanted || url !== remoteInfo.entry) return;
      if (remoteInfo.version !== undefined && remoteInfo.version !== wanted.manifest) return;
      const script = document.createElement('script');
      script.src = url;
      script.integrity = wanted.integrity;
      script.crossOrigin = 'anonymous';
      return script;
    },
  };
}
