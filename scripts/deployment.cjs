// Where the console and its remotes are served, and the security headers of their origins: one
// configuration read by the production composition (serve.mjs) and the dev servers
// (webpack.factory.cjs), so /remotes.json and the Content-Security-Policy always name the same
// remote origins. Nothing here reads a request: a forged Host header cannot change an answer.

/** The remotes (shared/src/remotes.json): name → { package, portOffset, … }; each served on PORT + portOffset. */
const REMOTES = require('../shared/src/remotes.json');

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/** The console's port and listening address (PORT, HOST). */
function consoleAddress(env = process.env) {
  return { port: Number(env.PORT || 8080), host: env.HOST || '127.0.0.1' };
}

/**
 * The host name browsers reach the servers by: VERITAS_PUBLIC_HOST, else HOST (a wildcard
 * listening address such as 0.0.0.0 names no host, so 'localhost' then).
 */
function publicHost(env = process.env) {
  const host = env.VERITAS_PUBLIC_HOST || consoleAddress(env).host;
  if (WILDCARD_HOSTS.has(host)) return 'localhost';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** REMOTES_JSON, checked: an object naming each remote's manifest by an absolute http(s) URL. */
function parseRemotesJson(text) {
  const value = JSON.parse(text);
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error('REMOTES_JSON must be a JSON object');
  for (const [name, url] of Object.entries(value)) {
    if (typeof url !== 'string' || !/^https?:$/.test(new URL(url).protocol)) {
      throw new Error(`REMOTES_JSON: the manifest URL of ${name} must be an absolute http(s) URL`);
    }
  }
  return value;
}

/**
 * What GET /remotes.json answers: remote name → URL of its mf-manifest.json. REMOTES_JSON when
 * set, else each remote on its port (PORT+1 …) of the public host.
 */
function remoteManifests(env = process.env) {
  if (env.REMOTES_JSON) return parseRemotesJson(env.REMOTES_JSON);
  const { port } = consoleAddress(env);
  const host = publicHost(env);
  return Object.fromEntries(
    Object.keys(REMOTES).map((name, i) => [name, `http://${host}:${port + i + 1}/mf-manifest.json`]),
  );
}

/** The distinct origins of the remotes (scheme, host and port of their manifests). */
function remoteOrigins(env = process.env) {
  return [...new Set(Object.values(remoteManifests(env)).map((url) => new URL(url).origin))];
}

/**
 * Options of helmet (and @fastify/helmet, which wraps it) for an origin that serves the console's
 * documents and scripts. The page may run scripts and fetch only from its own origin and
 * `remoteOrigins` (Module Federation loads each remote's manifest with fetch and its code with
 * script elements); no 'unsafe-eval'. 'unsafe-inline' remains for styles only: style-loader puts
 * each package's CSS in <style> elements and react-hot-toast styles its toasts through an inline
 * <style> (goober) that takes no nonce; inline styles cannot run code. No page may frame the
 * console (clickjacking onto Deactivate or Delete).
 * @param {{ remoteOrigins?: string[], crossOriginResources?: boolean }} [options]
 *   crossOriginResources: a remote's files are loaded by the console from another origin.
 */
function securityHeaders({ remoteOrigins: origins = [], crossOriginResources = false } = {}) {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...origins],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'", ...origins],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginResourcePolicy: { policy: crossOriginResources ? 'cross-origin' : 'same-origin' },
    // Over plain HTTP (the default here) browsers ignore it; behind TLS it pins HTTPS.
    strictTransportSecurity: { maxAge: 31536000, includeSubDomains: false },
  };
}

module.exports = { REMOTES, consoleAddress, remoteManifests, remoteOrigins, securityHeaders };
