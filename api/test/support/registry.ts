// Fake builds of remotes for the registry's tests: an mf-manifest.json, its remoteEntry.js, a chunk
// and its declaration (remote.json), as small as a real build's shape allows (no webpack).
import crypto from 'node:crypto';
import type { RemoteDeclaration } from '@veritas/shared/domain';
import { workspaceRemotes } from '../../../scripts/workspace-remotes.cjs';
import { modulesNamedBy } from '../../src/registry/declarations';
import type { Client } from './build';

/** The declarations of the workspace's remotes (their remote.json, as their builds publish it), by name. */
export const WORKSPACE_DECLARATIONS: Readonly<Record<string, RemoteDeclaration>> = Object.fromEntries(
  workspaceRemotes().map((remote) => [remote.name as string, remote.declaration as RemoteDeclaration]),
);

/** A declaration that adds nothing. */
export const emptyDeclaration = (remote: string): RemoteDeclaration => ({
  name: remote,
  pages: [],
  menus: [],
  extensions: [],
  slots: {},
  needs: {},
});

/** What `remote` declares unless a test says otherwise: the workspace's remote.json, or nothing. */
export const declarationOf = (remote: string): RemoteDeclaration =>
  structuredClone(WORKSPACE_DECLARATIONS[remote] ?? emptyDeclaration(remote));

/** What the tests' console provides its remotes. */
export const CONSOLE_SHARED = { react: '18.3.1', 'react-dom': '18.3.1', '@veritas/shared': '1.4.0' };

export interface FakeBuildOptions {
  /** Makes the build differ from others: its chunk's name and content. */
  marker?: string;
  /** The @veritas/shared range the build requires (a newer contract: ^2.0.0). */
  contractRange?: string;
  /** The react range it requires. */
  reactRange?: string;
  /** Its exposed modules; default those its declaration names. */
  exposes?: string[];
  /** Its remote.json; default declarationOf(remote); null: the build has none; a string: that text. */
  declaration?: RemoteDeclaration | string | null;
}

export interface FakeFile {
  path: string;
  bytes: Buffer;
}

export function fakeBuild(
  remote: string,
  {
    marker = 'a',
    contractRange = '^1.0.0',
    reactRange = '^18.2.0',
    declaration = declarationOf(remote),
    exposes = typeof declaration === 'object' && declaration !== null ? modulesNamedBy(declaration) : [],
  }: FakeBuildOptions = {},
): FakeFile[] {
  const chunk = `static/js/chunk.${marker}.js`;
  const declarationText = typeof declaration === 'string' ? declaration : JSON.stringify(declaration, null, 2);
  // As webpack's uniqueName does, the manifest changes with remote.json (webpack.factory.cjs sourceDigest).
  const digest = crypto.createHash('sha256').update(declarationText).digest('hex').slice(0, 8);
  const manifest = {
    id: remote,
    name: remote,
    metaData: {
      name: remote,
      type: 'app',
      buildInfo: { buildVersion: '1.0.0', buildName: `mfe-${remote}-${digest}` },
      remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' },
      publicPath: 'auto',
    },
    shared: [
      {
        id: `${remote}:@veritas/shared`,
        name: '@veritas/shared',
        version: '1.4.0',
        singleton: true,
        requiredVersion: contractRange,
      },
      { id: `${remote}:react`, name: 'react', version: '18.3.1', singleton: true, requiredVersion: reactRange },
    ],
    remotes: [],
    exposes: exposes.map((path) => ({
      id: `${remote}:${path.slice(2)}`,
      name: path.slice(2),
      path,
      assets: { js: { sync: [chunk], async: [] }, css: { sync: [], async: [] } },
    })),
  };
  return [
    { path: 'mf-manifest.json', bytes: Buffer.from(JSON.stringify(manifest, null, 2)) },
    { path: 'remoteEntry.js', bytes: Buffer.from(`var ${remote};/* entry ${marker} */ ${'x'.repeat(2000)}`) },
    { path: chunk, bytes: Buffer.from(`/* chunk ${marker} of ${remote} */ console.log(${JSON.stringify(marker)});`) },
    // The same in every build: a blob many versions share.
    { path: 'static/js/vendor.js', bytes: Buffer.from('/* vendor */ '.repeat(200)) },
    { path: 'index.html', bytes: Buffer.from('<!doctype html><title>standalone</title>') },
    ...(declaration === null ? [] : [{ path: 'remote.json', bytes: Buffer.from(declarationText) }]),
  ];
}

/** The files as a publish sends them. */
export const filesOf = (build: FakeFile[]) =>
  build.map((file) => ({ path: file.path, content: file.bytes.toString('base64') }));

export const sriOf = (bytes: Buffer, algorithm = 'sha384') =>
  `${algorithm}-${crypto.createHash(algorithm).update(bytes).digest('base64')}`;

export const entryOf = (build: FakeFile[]) => build.find((file) => file.path === 'remoteEntry.js')!;

/** Publishes a fake build of `remote` as `client`. */
export function publishAs(client: Client, remote: string, options: FakeBuildOptions = {}, note?: string) {
  return client.post(`registry/remotes/${remote}/versions/`, { files: filesOf(fakeBuild(remote, options)), note });
}

/** A call of the registry with a deploy token: no cookie, no XSRF header. */
export async function withToken(baseUrl: string, secret: string, method: string, apiPath: string, body?: unknown) {
  const response = await fetch(`${baseUrl}/veritas/${apiPath}`, {
    method,
    headers: {
      authorization: `Bearer ${secret}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
