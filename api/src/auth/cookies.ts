// Session and request-forgery cookies.
import crypto from 'node:crypto';
import { API_PREFIX, XSRF_COOKIE, XSRF_HEADER } from '@veritas/shared/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { accessTokenSecretOf } from '../access-tokens/access-tokens';
import { Forbidden, NO_SESSION, Unauthorized } from '../http-errors';
import { ACCESS_TTL_MS, REFRESH_TTL_MS, type Tokens } from './sessions';

/** The mobile app's calls (bearer token, no cookies). */
export const APP_PREFIX = `${API_PREFIX}/app/`;
/**
 * httpOnly; sent with every request of the console's origin: the API's calls, and the page
 * document and /remotes.json, which compose the console for the user it names.
 */
export const ACCESS_COOKIE = 'veritas_access';
const ACCESS_PATH = '/';
/** httpOnly; only sent to user/refresh/ and user/logout/. */
export const REFRESH_COOKIE = 'veritas_refresh';
const REFRESH_PATH = `${API_PREFIX}/user/`;
/** The remote registry's calls: a deploy token (bearer) or the console's session. */
export const REGISTRY_PREFIX = `${API_PREFIX}/registry/`;
/** The order systems' API (docs/integrations.md): an API key's calls, never a cookie's. */
export const API_V1_PREFIX = `${API_PREFIX}/api/v1/`;
/**
 * httpOnly, sent with every request of the console's origin: the username, base64url, so that a
 * canary's share of users is the same users on every load (src/registry/serving.ts); only the page
 * document and /remotes.json read it. It is not a credential: choosing another value only chooses
 * which of two published versions of a remote one loads, both of which anyone may load.
 */
export const VIEWER_COOKIE = 'veritas_viewer';
const VIEWER_PATH = '/';
/** Where the access and viewer cookies were set before they moved to `/`: logout clears them there too. */
const OLD_ACCESS_PATH = API_PREFIX;
const OLD_VIEWER_PATH = '/remotes.json';
// XSRF_COOKIE is readable by the console's scripts on any page, which echo it in XSRF_HEADER.

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const base = (request: FastifyRequest) => ({ sameSite: 'lax' as const, secure: request.protocol === 'https' });

export function setSessionCookies(request: FastifyRequest, reply: FastifyReply, tokens: Tokens): void {
  reply.setCookie(ACCESS_COOKIE, tokens.access, {
    ...base(request),
    httpOnly: true,
    path: ACCESS_PATH,
    maxAge: ACCESS_TTL_MS / 1000,
  });
  reply.setCookie(REFRESH_COOKIE, tokens.refresh, {
    ...base(request),
    httpOnly: true,
    path: REFRESH_PATH,
    maxAge: REFRESH_TTL_MS / 1000,
  });
  reply.setCookie(VIEWER_COOKIE, Buffer.from(tokens.username).toString('base64url'), {
    ...base(request),
    httpOnly: true,
    path: VIEWER_PATH,
    maxAge: REFRESH_TTL_MS / 1000,
  });
}

export function clearSessionCookies(reply: FastifyReply): void {
  reply.clearCookie(ACCESS_COOKIE, { path: OLD_ACCESS_PATH });
  reply.clearCookie(ACCESS_COOKIE, { path: ACCESS_PATH });
  reply.clearCookie(REFRESH_COOKIE, { path: REFRESH_PATH });
  reply.clearCookie(VIEWER_COOKIE, { path: OLD_VIEWER_PATH });
  reply.clearCookie(VIEWER_COOKIE, { path: VIEWER_PATH });
}

/**
 * The cookie `name` of the request: as @fastify/cookie parsed it, or read from the Cookie header
 * where that plugin does not run (the console's page document, scripts/serve.mjs). The first one
 * of that name, as the plugin takes it (a browser sends the one of the longest path first).
 */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  if (request.cookies) return request.cookies[name];
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    const raw = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

/** The username the viewer cookie names, or undefined. */
export function viewerOf(request: FastifyRequest): string | undefined {
  const value = cookieOf(request, VIEWER_COOKIE);
  return value ? Buffer.from(value, 'base64url').toString() || undefined : undefined;
}

export function setXsrfCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.setCookie(XSRF_COOKIE, crypto.randomBytes(24).toString('base64url'), {
    ...base(request),
    httpOnly: false,
    path: '/',
  });
}

/**
 * Double-submit check: a page of another site can make the browser send our cookies but
 * cannot read the XSRF cookie to copy it into the header. GETs receive the cookie when missing.
 */
export async function xsrfGuard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  // The mobile app's and the API keys' calls authenticate only by their Authorization header, which another site's
  // page cannot make a browser send: there is no cookie to forge requests with, nothing to check.
  if (request.url.startsWith(APP_PREFIX) || request.url.startsWith(API_V1_PREFIX)) return;
  // Likewise a deploy token's call of the registry: its hook then reads the token, never a cookie.
  if (request.url.startsWith(REGISTRY_PREFIX) && accessTokenSecretOf(request) !== undefined) return;
  const cookie = request.cookies[XSRF_COOKIE];
  if (SAFE_METHODS.has(request.method)) {
    if (!cookie) setXsrfCookie(request, reply);
    return;
  }
  // An access token (an API key, a deploy token) calls nothing of the console's session API: 401
  // as a GET gets, rather than the 403 of a forged cookie, which it is not.
  if (accessTokenSecretOf(request) !== undefined) throw new Unauthorized(NO_SESSION);
  const header = request.headers[XSRF_HEADER.toLowerCase()];
  if (!cookie || typeof header !== 'string' || !sameText(cookie, header)) {
    // Checked in front of every route: both the login screen's field and the others' carry it.
    const message = 'CSRF token missing or incorrect.';
    throw new Forbidden(message, { res: message, error: message });
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
