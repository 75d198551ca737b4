// Where the console is served, where it loads its remotes from when they do not come from the
// registry, and the security headers of its origins: one configuration read by the production
// composition (serve.mjs) and the dev servers (webpack.factory.cjs), so /remotes.json and the
// Content-Security-Policy always name the same remote origins. Nothing here reads a request: a
// forged Host header cannot change an answer.

/** The console's port and listening address (PORT, HOST). */
function consoleAddress(env = process.env) {
  return { port: Number(env.PORT || 8080), host: env.HOST || '127.0.0.1' };
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
 * A fixed list of remotes instead of the registry: remote name → URL of its mf-manifest.json, from
 * REMOTES_JSON (e.g. the dev servers, or builds served elsewhere); null when the registry decides.
 */
function configuredRemotes(env = process.env) {
  return env.REMOTES_JSON ? parseRemotesJson(env.REMOTES_JSON) : null;
}

/** The distinct origins of a fixed list of remotes (scheme, host and port of their manifests). */
function remoteOrigins(env = process.env) {
  const remotes = configuredRemotes(env);
  return remotes ? [...new Set(Object.values(remotes).map((url) => new URL(url).origin))] : [];
}

/**
 * Options of helmet for an origin that serves the console's documents and scripts. The page may
 * run scripts and fetch only from its own origin, `remoteOrigins` and what `moreOrigins` answers
 * for the request (the registry's allowed origins, which change while the console runs): Module
 * Federation loads each remote's manifest with fetch and its code with script elements; no
 * 'unsafe-eval'. 'unsafe-inline' remains for styles only: style-loader puts each package's CSS in
 * <style> elements and react-hot-toast styles its toasts through an inline <style> (goober) that
 * takes no nonce; inline styles cannot run code. No page may frame the console (clickjacking onto
 * Deactivate or Delete).
 * @param {{ remoteOrigins?: string[], moreOrigins?: () => string, crossOriginResources?: boolean }} [options]
 *   moreOrigins: space-separated origins, read for each answer.
 *   crossOriginResources: a remote's files are loaded by the console from another origin.
 */
function securityHeaders({ remoteOrigins: staticOrigins = [], moreOrigins, crossOriginResources = false } = {}) {
  const origins = moreOrigins ? [...staticOrigins, moreOrigins] : staticOrigins;
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

module.exports = { consoleAddress, configuredRemotes, remoteOrigins, securityHeaders };
