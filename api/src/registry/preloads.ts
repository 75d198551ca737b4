// What the page document asks the browser for at once (docs/architecture.md#first-rows): for a
// signed-in viewer, the shell's scripts a page load fetches after its entry; for the page its path
// opens, the remote's mf-manifest.json, its entry script (with its integrity) and the scripts the
// page's module needs first. Without them each waits for the one before: the shell's entry, its
// chunks, then the manifest, then the entry, then the page's chunks.
import { readManifest, type Composition } from '@veritas/shared/domain';
import { gunzipped, type RemoteFiles } from './serving';
import { MANIFEST_KEY_LENGTH } from './versions';

/** A registry version's files, by path: `/remotes/<remote>/<key>/`. */
const VERSION_FOLDER = new RegExp(`^/remotes/([a-z][a-z0-9-]*)/([0-9a-f]{${MANIFEST_KEY_LENGTH}})/mf-manifest\\.json$`);

/** What a manifest says a page needs first: its entry script and, per exposed module, its first scripts. */
interface Needs {
  entry: string;
  modules: Map<string, string[]>;
}

/** Manifests are immutable (their folder is their hash): read once each, the last ones kept. */
const KNOWN_MANIFESTS = 200;
const known = new Map<string, Needs | null>();

async function needsOf(files: RemoteFiles, remote: string, key: string): Promise<Needs | null> {
  const at = `${remote}/${key}`;
  if (known.has(at)) return known.get(at)!;
  const file = await files.file(remote, key, 'mf-manifest.json');
  let needs: Needs | null = null;
  if (file) {
    const manifest = readManifest(JSON.parse((await gunzipped(file)).toString('utf8')));
    if (manifest) {
      const { path = '', name } = manifest.metaData.remoteEntry;
      const sync = (expose: unknown) =>
        ((expose as { assets?: { js?: { sync?: unknown } } }).assets?.js?.sync as string[] | undefined) ?? [];
      needs = {
        entry: `${path}${name}`,
        modules: new Map(manifest.exposes.map((expose) => [expose.path, sync(expose)])),
      };
    }
  }
  if (known.size >= KNOWN_MANIFESTS) known.delete(known.keys().next().value!);
  known.set(at, needs);
  return needs;
}

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The path of a page document without slashes around it, lower-cased. */
const routeOf = (pathname: string) => pathname.replace(/^\/+|\/+$/g, '').toLowerCase();

/**
 * The <link rel="preload"> elements of the page document at `pathname` for `composition`'s viewer,
 * signed in and at a page of the layout (not /login): the shell's scripts of a page load
 * (`shellScripts`, paths: shell/dist/page-load.json), then those of the page the path opens
 * (remotePreloads).
 */
export async function pagePreloads(
  files: RemoteFiles,
  composition: Composition,
  pathname: string,
  shellScripts: readonly string[],
): Promise<string> {
  // Nobody signed in goes to the login form, which needs none of them.
  if (composition.viewer === null || routeOf(pathname) === 'login') return '';
  const shell = shellScripts.map((script) => `<link rel="preload" as="script" href="${attribute(script)}">`);
  return shell.join('') + (await remotePreloads(files, composition, pathname));
}

/**
 * The <link rel="preload"> elements for the page at `pathname` of `composition` (none for a path
 * that is no page of it, or a remote served from a team's own CDN): the fetch of the manifest as
 * the federation runtime makes it, the entry script as the shell loads it (integrity, anonymous
 * CORS), the module's first chunks as webpack loads them.
 */
async function remotePreloads(files: RemoteFiles, composition: Composition, pathname: string): Promise<string> {
  const path = routeOf(pathname);
  const page = composition.pages.find((candidate) => candidate.path.toLowerCase() === path);
  const location = page && composition.remotes[page.remote];
  const folder = location && VERSION_FOLDER.exec(location.entry);
  if (!page || !location || !folder) return '';
  const needs = await needsOf(files, folder[1]!, folder[2]!);
  const base = location.entry.slice(0, -'mf-manifest.json'.length);
  const links = [`<link rel="preload" as="fetch" crossorigin="anonymous" href="${attribute(location.entry)}">`];
  if (needs) {
    const integrity = location.integrity ? ` integrity="${attribute(location.integrity)}"` : '';
    links.push(
      `<link rel="preload" as="script" crossorigin="anonymous"${integrity} href="${attribute(base + needs.entry)}">`,
    );
    for (const chunk of needs.modules.get(page.module) ?? []) {
      links.push(`<link rel="preload" as="script" href="${attribute(base + chunk)}">`);
    }
  }
  return links.join('');
}
