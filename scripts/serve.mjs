// The production composition of Veritas, as `pnpm start` runs it:
// - the console origin (PORT): the /veritas API, the shell's files with a SPA fallback, /remotes.json;
// - each remote on its own origin (PORT + its port offset, shared/src/remotes.json), like an independent deployment.
// Expects built packages (see start.mjs, which builds what is missing or stale first).
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const Fastify = require('fastify');
const fastifyStatic = require('@fastify/static');
const fastifyCompress = require('@fastify/compress');
const fastifyHelmet = require('@fastify/helmet');
const { REMOTES, consoleAddress, remoteManifests, remoteOrigins, securityHeaders } = require('./deployment.cjs');

const HOST = consoleAddress().host;

// Manifests and entry documents must be revalidated so a redeployed remote shows on reload;
// everything else is content-hashed and can be cached for good.
// (@fastify/static passes its Fastify reply here.)
function setCacheHeaders(reply, filePath) {
  const name = path.basename(filePath);
  const mutable = name === 'index.html' || name === 'mf-manifest.json' || name === 'mf-stats.json';
  reply.header('Cache-Control', mutable ? 'no-cache' : 'public, max-age=31536000, immutable');
}

async function serveRemote(dir, port, endConnectionsWhenClosing) {
  const app = Fastify({ logger: false });
  endConnectionsWhenClosing(app);
  await app.register(fastifyHelmet, securityHeaders({ crossOriginResources: true }));
  await app.register(fastifyCompress, { global: true });
  // Remote files are fetched cross-origin by the shell (the manifest with fetch()).
  app.addHook('onSend', async (_req, reply) => {
    reply.header('Access-Control-Allow-Origin', '*');
  });
  await app.register(fastifyStatic, { root: dir, setHeaders: setCacheHeaders });
  await app.listen({ port, host: HOST });
  return app;
}

/**
 * Starts the console and every built remote.
 * @param {{ port?: number }} [options]
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function serve({ port = consoleAddress().port } = {}) {
  const { createServer, endConnectionsWhenClosing } = require(path.join(root, 'api/dist/server.js'));
  const env = { ...process.env, PORT: String(port) };
  // Read once from configuration, never from a request (see deployment.cjs).
  const remotes = remoteManifests(env);
  // VERITAS_DEMO: anything but '0' fills an empty database with the demo data (api/seed/).
  const demo = env.VERITAS_DEMO !== undefined && env.VERITAS_DEMO !== '' && env.VERITAS_DEMO !== '0';
  const seed = demo ? require(path.join(root, 'api/dist/seed.js')).demoSeed : undefined;
  const { app } = await createServer({ seed });

  const shellDir = path.join(root, 'shell/dist');
  // In its own scope, so this compression does not stack on the API's own (tuned) one.
  await app.register(async (consoleScope) => {
    await consoleScope.register(fastifyHelmet, securityHeaders({ remoteOrigins: remoteOrigins(env) }));
    await consoleScope.register(fastifyCompress, { global: true });
    await consoleScope.register(fastifyStatic, {
      root: shellDir,
      setHeaders: setCacheHeaders,
      wildcard: false,
      index: false,
    });
    consoleScope.get('/remotes.json', async (_request, reply) => {
      reply.header('Cache-Control', 'no-cache');
      return remotes;
    });
    // Deep links (/ListDevices, /login …) are routes of the shell: answer its index.html.
    consoleScope.setNotFoundHandler((request, reply) => {
      const isPage =
        (request.method === 'GET' || request.method === 'HEAD') && !path.extname(request.url.split('?')[0]);
      if (!isPage) return reply.code(404).send({ detail: 'Not found' });
      reply.header('Cache-Control', 'no-cache');
      return reply.sendFile('index.html', shellDir);
    });
  });
  await app.listen({ port, host: HOST });

  const remoteServers = [];
  const deployed = [];
  for (const [name, remote] of Object.entries(REMOTES)) {
    const dir = path.join(root, remote.package, 'dist');
    if (!existsSync(path.join(dir, 'mf-manifest.json'))) continue; // not deployed: the shell shows its error card
    remoteServers.push(await serveRemote(dir, port + remote.portOffset, endConnectionsWhenClosing));
    deployed.push(`${name} :${port + remote.portOffset}`);
  }

  const url = `http://${HOST}:${port}/`;
  console.log(`Veritas console on ${url}  (remotes: ${deployed.join(', ') || 'none built'})`);
  return {
    url,
    // The API's close (its onClose hook) closes the database too.
    close: async () => {
      await Promise.all(remoteServers.map((s) => s.close()));
      await app.close();
    },
  };
}

/** Serves until SIGINT/SIGTERM, then closes servers and database cleanly. */
export async function serveUntilStopped() {
  const server = await serve();
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await serveUntilStopped();
