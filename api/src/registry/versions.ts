// What the registry's calls share: its configuration, the gate, and a version as the API answers it.
import {
  DECLARATION_FILE,
  type ConsoleShared,
  type RemoteDeclaration,
  type RemoteManifest,
  type RemoteVersion,
} from '@veritas/shared/domain';
import { isoOfMs } from '../db/schema';
import { Conflict } from '../http-errors';
import { versionProblems, type DeclaredRemote } from './declarations';
import type { VersionRow } from './repository';

/** The registry's configuration (createServer's options). */
export interface RegistryConfig {
  /** What the console's shell provides its remotes; unknown, nothing can be checked, so nothing is published. */
  consoleShared: ConsoleShared | undefined;
  /** How external builds are fetched (tests reach a local https server through it). */
  fetch: typeof fetch;
  /** How many versions of a remote are kept, besides the live, canary and previous ones. */
  keep: number;
}

/** How many versions of a remote are kept by default (VERITAS_REGISTRY_KEEP). */
export const DEFAULT_KEEP = 10;

export function registryConfig(options: Partial<RegistryConfig> = {}): RegistryConfig {
  return {
    consoleShared: options.consoleShared,
    fetch: options.fetch ?? globalThis.fetch,
    keep: options.keep ?? DEFAULT_KEEP,
  };
}

/** The folder of a registry version's files: /remotes/<remote>/<first 16 hex digits of its manifest's hash>/. */
export const MANIFEST_KEY_LENGTH = 16;

export function versionFolder(remote: string, manifestHash: string): string {
  return `/remotes/${remote}/${manifestHash.slice(0, MANIFEST_KEY_LENGTH)}/`;
}

/** The URL of a version's mf-manifest.json: a path of this console, or on the team's own CDN. */
export function manifestUrlOf(row: Pick<VersionRow, 'remote' | 'manifest_hash' | 'base_url'>): string {
  return (row.base_url ?? versionFolder(row.remote, row.manifest_hash)) + 'mf-manifest.json';
}

export function remoteVersionOf(row: VersionRow): RemoteVersion {
  return {
    remote: row.remote,
    version: row.version,
    manifestHash: row.manifest_hash,
    integrity: row.integrity,
    contract: row.contract,
    shared: JSON.parse(row.shared_json) as RemoteVersion['shared'],
    exposes: JSON.parse(row.exposes_json) as string[],
    manifestUrl: manifestUrlOf(row),
    source: row.source,
    bytes: Number(row.bytes),
    publishedBy: row.published_by,
    publishedAt: isoOfMs(row.published_ms),
    note: row.note,
  };
}

/**
 * What the gate reads of a stored version, as a manifest: its name, the ranges it requires and its
 * exposed modules, kept with the version so that promoting it checks it again without its files.
 */
export function storedManifest(row: VersionRow): RemoteManifest {
  const shared = JSON.parse(row.shared_json) as RemoteVersion['shared'];
  return {
    name: row.remote,
    metaData: { remoteEntry: { name: '' } },
    shared,
    exposes: (JSON.parse(row.exposes_json) as string[]).map((path) => ({ name: path.replace(/^\.\//, ''), path })),
  };
}

/** A stored version's declaration (remote.json); null for one published before declarations were kept. */
export function storedDeclaration(row: Pick<VersionRow, 'declaration_json'>): RemoteDeclaration | null {
  return row.declaration_json === null ? null : (JSON.parse(row.declaration_json) as RemoteDeclaration);
}

/** Refuses (409) when the server cannot check a version: it does not know the console's shell. */
export function requireShell(config: RegistryConfig): ConsoleShared {
  if (!config.consoleShared) {
    throw new Conflict(
      "This server does not know the console's shell, so it cannot check a version: serve the API with the console (scripts/serve.mjs).",
    );
  }
  return config.consoleShared;
}

/**
 * The gate (docs/deploying-a-remote.md#the-gate and #the-checks): 409 naming every reason the
 * version of `remote` with this manifest and declaration cannot be served beside `others`, the
 * other remotes' live and canary declarations.
 */
export function checkVersion(
  config: RegistryConfig,
  remote: string,
  manifest: unknown,
  declaration: RemoteDeclaration,
  others: readonly DeclaredRemote[],
): void {
  const problems = versionProblems(remote, manifest, requireShell(config), declaration, others);
  if (problems.length > 0) throw new Conflict(`${remote} cannot run in this console: ${problems.join('; ')}`);
}

/** A stored version, checked again before it is served (promote, canary): it must have a declaration. */
export function checkStoredVersion(config: RegistryConfig, row: VersionRow, others: readonly DeclaredRemote[]): void {
  requireShell(config);
  const declaration = storedDeclaration(row);
  if (!declaration) {
    throw new Conflict(
      `Version ${row.version} of ${row.remote} has no ${DECLARATION_FILE}: it was published before versions declared what they add. Publish a new build.`,
    );
  }
  checkVersion(config, row.remote, storedManifest(row), declaration, others);
}
