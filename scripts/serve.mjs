// The production composition of Veritas, as `pnpm start` runs it, on one origin (PORT): the /veritas
// API, the shell's files, every page path answered with the page document (the shell's index.html
// with the viewer's composition inlined, built by the API), and the remote registry's /remotes.json
// and versioned remote files (/remotes/<remote>/<build>/…), which the API serves from the database,
// so every instance of a fleet serves every version. At start, the built remotes are published to
// the registry (docs/deploying-a-remote.md#pnpm-start-remotes_json-and-the-dev-servers). Expects built packages (see start.mjs,
// which builds what is missing or stale first).
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fastifyCompress = require('@fastify/compress');
const { consoleAddress, configuredRemotes, remoteOrigins, securityHeaders } = require('./deployment.cjs');
const { workspaceRemotes } = require('./workspace-remotes.cjs');

const HOST = consoleAddress().host;

/** Each remote's dist/ folder that holds a build. */
function builtRemotes() {
  return Object.fromEntries(
    workspaceRemotes()
      .map((remote) => [remote.name, path.join(remote.dir, 'dist')])
      .filter(([, dir]) => existsSync(path.join(dir, 'mf-manifest.json'))),
  );
}

/**
 * Starts the console.
 * @param {{ port?: number }} [options]
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function serve({ port = consoleAddress().port } = {}) {
  const { createServer, sharedOf, readShellFiles, shellFileRoutes, addSecurityHeaders } = require(
    path.join(root, 'api/dist/server.js'),
  );
  const env = { ...process.env, PORT: String(port) };
  // VERITAS_DEMO: anything but '0' fills an empty database with the demo data (api/seed/).
  const demo = env.VERITAS_DEMO !== undefined && env.VERITAS_DEMO !== '' && env.VERITAS_DEMO !== '0';
  const seed = demo ? require(path.join(root, 'api/dist/seed.js')).demoSeed : undefined;
  const shellDir = path.join(root, 'shell/dist');
  // REMOTES_JSON: a fixed list instead of the registry, read once from configuration; what those
  // remotes add to the console is then what the workspace's remote.json files declare.
  const staticRemotes = configuredRemotes(env) ?? undefined;
  const { app, registry, sendPageDocument } = await createServer({
    seed,
    // What the live shell provides its remotes: the registry's compatibility gate checks each version against it.
    consoleShared: sharedOf(JSON.parse(readFileSync(path.join(shellDir, 'mf-manifest.json'), 'utf8'))),
    staticRemotes,
    staticDeclarations: staticRemotes ? workspaceRemotes().map((remote) => remote.declaration) : undefined,
    publishBuilt: staticRemotes ? undefined : builtRemotes(),
    // Read once: every page path is answered with it, the viewer's composition inlined.
    shellDocument: readFileSync(path.join(shellDir, 'index.html'), 'utf8'),
    // The shell's scripts of a signed-in page load (webpack.factory.cjs, PageLoadChunksPlugin).
    shellScripts: JSON.parse(readFileSync(path.join(shellDir, 'page-load.json'), 'utf8')).map((file) => `/${file}`),
  });

  // The registry's allowed origins (a team's own CDN) may load scripts in the console: read for
  // each page, as super_admin changes them while the console runs.
  let allowedOrigins = '';
  // In its own scope, so this compression does not stack on the API's own (tuned) one.
  await app.register(async (consoleScope) => {
    consoleScope.addHook('onRequest', async () => {
      allowedOrigins = (await registry.allowedOrigins()).join(' ');
    });
    addSecurityHeaders(
      consoleScope,
      securityHeaders({ remoteOrigins: remoteOrigins(env), moreOrigins: () => allowedOrigins }),
    );
    await consoleScope.register(fastifyCompress, { global: true });
    // The shell's build, read once: a new shell comes with a new server (docs/architecture.md#locating-remotes).
    shellFileRoutes(consoleScope, readShellFiles(shellDir));
    // Page paths (/, /ListDevices, /login …) are routes of the shell: answer the page document,
    // its index.html with the viewer's composition, and the status the API gives the path (403: a
    // page this user may not open, 404: a page no longer served). Per viewer, never cached as is.
    consoleScope.setNotFoundHandler(async (request, reply) => {
      const isPage =
        (request.method === 'GET' || request.method === 'HEAD') && !path.extname(request.url.split('?')[0]);
      if (!isPage) return reply.code(404).send({ detail: 'Not found' });
      return sendPageDocument(request, reply);
    });
  });
  await app.listen({ port, host: HOST });

  const url = `http://${HOST}:${port}/`;
  console.log(`Veritas console on ${url}  (remotes: ${staticRemotes ? 'REMOTES_JSON' : 'the registry'})`);
  return {
    url,
    // The API's close (its onClose hook) closes the database too.
    close: () => app.close(),
  };
}

/** Serves until SIGINT/SIGTERM, then closes servers and database cleanly. */
export async function serveUntilStopped() {
  const { reportStartFailure } = require(path.join(root, 'api/dist/server.js'));
  const server = await serve().catch((error) => {
    reportStartFailure(error);
    process.exit(1);
  });
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await serveUntilStopped();
