// Whether a remote's build works with the console that would load it (docs/deploying-a-remote.md#the-gate):
// the registry refuses such a version at publish and at promote, and the shell checks each manifest
// again when it loads it (shell/src/compatibility-plugin.ts). One rule, applied on both sides.
import satisfies from 'semver/functions/satisfies';
import validRange from 'semver/ranges/valid';

/** The package whose version is the console's contract with its remotes (shared/contract.json). */
export const CONTRACT_PACKAGE = '@veritas/shared';

/** The parts of an mf-manifest.json the gate reads. */
export interface RemoteManifest {
  name: string;
  metaData: { remoteEntry: { name: string; path?: string } };
  shared: { name: string; version?: string; requiredVersion?: string | false; singleton?: boolean }[];
  exposes: { name: string; path: string }[];
}

/** What the console offers its remotes: each shared package it provides, with its version. */
export type ConsoleShared = Readonly<Record<string, string>>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` read as an mf-manifest.json, or null when it is not one. */
export function readManifest(value: unknown): RemoteManifest | null {
  if (!isRecord(value) || typeof value.name !== 'string') return null;
  const { metaData, shared, exposes } = value;
  if (!isRecord(metaData) || !isRecord(metaData.remoteEntry) || typeof metaData.remoteEntry.name !== 'string')
    return null;
  if (!Array.isArray(shared) || !shared.every((s) => isRecord(s) && typeof s.name === 'string')) return null;
  if (!Array.isArray(exposes) || !exposes.every((e) => isRecord(e) && typeof e.path === 'string')) return null;
  return value as unknown as RemoteManifest;
}

/** The contract version a build was made against: the version of @veritas/shared it names. */
export function contractOf(manifest: RemoteManifest): string | null {
  return manifest.shared.find((s) => s.name === CONTRACT_PACKAGE)?.version ?? null;
}

/**
 * A remote's build that does not fit the console: what the shell's loader throws (here, in the
 * chunk it loads to check a manifest, rather than in the shell's first load).
 */
export class IncompatibleRemoteError extends Error {
  constructor(
    readonly remote: string,
    readonly problems: readonly string[],
  ) {
    super(`The build of "${remote}" cannot run in this console: it ${problems.join('; it ')}.`);
    this.name = 'IncompatibleRemoteError';
  }
}

/**
 * Why the build of `remote` described by `manifest` cannot run in a console that provides
 * `consoleShared`; empty when it can. Each problem is one sentence, e.g.
 * "needs @veritas/shared ^2.0.0, the console provides 1.4.0". Checked:
 * - the manifest is one, and names `remote`;
 * - every shared package the console provides is in the range the build requires (a newer
 *   contract is a @veritas/shared range the console's version is below);
 * - the build exposes every module of `used`: those its declaration names (the registry), or the
 *   composition loads (the shell).
 * A shared package the console does not provide is the build's own business (it brings its copy).
 */
export function compatibilityProblems(
  remote: string,
  manifest: unknown,
  consoleShared: ConsoleShared,
  used: readonly string[] = [],
): string[] {
  const read = readManifest(manifest);
  if (!read) return ['is not a Module Federation manifest (mf-manifest.json)'];
  const problems: string[] = [];
  if (read.name !== remote) problems.push(`is the build of "${read.name}", not of "${remote}"`);
  const checked = new Set<string>();
  for (const { name, requiredVersion } of read.shared) {
    const provided = consoleShared[name];
    if (provided === undefined || !requiredVersion || checked.has(name)) continue;
    checked.add(name);
    if (!validRange(requiredVersion)) problems.push(`gives ${name} the range "${requiredVersion}", which is not one`);
    else if (!satisfies(provided, requiredVersion)) {
      problems.push(`needs ${name} ${requiredVersion}, the console provides ${provided}`);
    }
  }
  const exposed = new Set(read.exposes.map((e) => e.path));
  for (const module of new Set(used)) {
    if (!exposed.has(module)) problems.push(`does not expose ${module}, which its remote.json names`);
  }
  return problems;
}

/** The shared packages a console's own manifest (the shell's mf-manifest.json) provides, with their versions. */
export function sharedOf(manifest: unknown): ConsoleShared {
  const read = readManifest(manifest);
  if (!read) return {};
  return Object.fromEntries(read.shared.flatMap((s) => (s.version ? [[s.name, s.version] as const] : [])));
}
