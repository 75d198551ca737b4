// The remotes of this workspace, for its tooling (builds, dev servers, `pnpm start`, lint zones):
// every package folder `mfe-*` (pnpm-workspace.yaml) with a remote.json beside its package.json.
// Each remote declares itself there (docs/architecture.md#composition); nothing else lists them.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/**
 * The fields of remote.json only the workspace reads: the build publishes the rest (the
 * declaration). @veritas/shared's WORKSPACE_FIELDS, which CommonJS cannot import from its
 * TypeScript: scripts/test/create-remote.test.ts keeps the two equal.
 */
const WORKSPACE_FIELDS = ['devPort', 'title', 'exposes'];

/**
 * The remote whose package is `dir`: its name, folder, remote.json as written, and the declaration
 * its build publishes; null when `dir` holds no remote.json.
 */
function remoteAt(dir) {
  const file = path.join(dir, 'remote.json');
  if (!fs.existsSync(file)) return null;
  const written = JSON.parse(fs.readFileSync(file, 'utf8'));
  const declaration = Object.fromEntries(Object.entries(written).filter(([key]) => !WORKSPACE_FIELDS.includes(key)));
  return { name: written.name, package: path.basename(dir), dir, written, declaration };
}

/** Every remote of the workspace, by folder name. */
function workspaceRemotes() {
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith('mfe-'))
    .map((entry) => remoteAt(path.join(root, entry.name)))
    .filter((remote) => remote !== null)
    .sort((a, b) => (a.package < b.package ? -1 : 1));
}

module.exports = { remoteAt, workspaceRemotes, WORKSPACE_FIELDS };
