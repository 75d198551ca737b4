import axios, { isAxiosError, type InternalAxiosRequestConfig } from 'axios';
import { API_PREFIX, XSRF_COOKIE, XSRF_HEADER } from './api/protocol';
import { notApplied, retryAfterWait, sleep, type RetryAfterBudget } from './retry-after';
import { useSession } from './session';
import { SERVER_FEATURES, type RoleResponse } from './types';

/**
 * The one HTTP client of the console (docs/architecture.md#request-flow): every call goes under
 * /veritas with cookies and JSON. axios copies the XSRF-TOKEN cookie into the X-XSRF-TOKEN header on same-origin
 * requests (its default while `withXSRFToken` is unset); never set it to `true`, that would
 * send the token to other origins too.
 */
export const http = axios.create({
  baseURL: API_PREFIX,
  withCredentials: true,
  headers: { 'Content-Type': 'application/json' },
  xsrfCookieName: XSRF_COOKIE,
  xsrfHeaderName: XSRF_HEADER,
});

const LOGIN_PATH = '/login';
// A 401 from these means "wrong credentials" or "session over", never "access token expired".
const AUTH_CALLS = ['user/login/', 'user/refresh/'];

/**
 * A request as the refresh logic sees it: whether it was already replayed, and the last session
 * renewal that had completed when it was sent (its 401 may predate a renewal finished since).
 */
type ReplayableConfig = InternalAxiosRequestConfig & { veritasRetried?: boolean; veritasRenewalSeen?: number };

let redirectToLogin: () => void = () => window.location.replace(LOGIN_PATH);

/** How the app goes to /login once the session has expired; the default reloads the page there. */
export function setLoginRedirect(redirect: () => void): void {
  redirectToLogin = redirect;
}

/**
 * The latest session renewal (user/refresh/), numbered. Every request sent before it completed
 * carried the expired access cookie, so its 401 is answered by this renewal: waiting for it (or
 * replaying at once when it is over) and never starting another. Only a 401 for a request sent
 * after the latest renewal completed starts a new one. So any burst of 401s costs one refresh,
 * however their answers interleave with it.
 */
let renewal: { id: number; done: Promise<void>; settled: boolean } | null = null;

/**
 * Whether a failed renewal says nothing of the session: the server could not answer (a 503 while
 * the database is away past the repeats, or no answer at all), so the refresh cookie was never
 * judged. Signing out then would end a session that is still good; the call fails instead, and the
 * next 401 tries again. Any other failure (401: the session is over) signs out.
 */
function renewalUnanswered(error: unknown): boolean {
  const status = httpStatus(error);
  return status === 0 || status === 503;
}

function startRenewal(): Promise<void> {
  const current = {
    id: (renewal?.id ?? 0) + 1,
    settled: false,
    done: http.post('user/refresh/').then(
      () => undefined,
      (error: unknown) => {
        if (!renewalUnanswered(error)) {
          useSession.getState().clearSession();
          redirectToLogin();
        }
        throw error;
      },
    ),
  };
  void current.done.then(
    () => (current.settled = true),
    () => (current.settled = true),
  );
  renewal = current;
  return current.done;
}

/** The id of the last renewal that had completed; one still under way has not. */
const completedRenewal = () => (renewal ? (renewal.settled ? renewal.id : renewal.id - 1) : 0);

function isAuthCall(url: string | undefined): boolean {
  const path = (url ?? '').replace(/^\//, '');
  return AUTH_CALLS.some((call) => path.startsWith(call));
}

// Synchronous, so a call leaves at once (as without interceptors) and records what it was sent with.
http.interceptors.request.use(
  (config: ReplayableConfig) => {
    config.veritasRenewalSeen = completedRenewal();
    return config;
  },
  undefined,
  { synchronous: true },
);

http.interceptors.response.use(undefined, async (error: unknown) => {
  if (httpStatus(error) !== 401 || !isAxiosError(error) || !error.config) throw error;
  const config: ReplayableConfig = error.config;
  if (config.veritasRetried || isAuthCall(config.url) || window.location.pathname === LOGIN_PATH) throw error;
  config.veritasRetried = true;
  const answeredBy = renewal && renewal.id > (config.veritasRenewalSeen ?? 0) ? renewal.done : startRenewal();
  try {
    await answeredBy;
  } catch (renewalError) {
    // An unanswered renewal: the call fails as the server's unavailability, not as a 401.
    throw renewalUnanswered(renewalError) ? renewalError : error;
  }
  return http(config);
});

/**
 * A 503 with Retry-After (docs/errors.md#database-unavailable: the database restarting) is waited
 * out and the call repeated, a few times and a few seconds in all: a GET always, a write only when
 * the body's `outcome` is 'not-applied'. A write whose outcome is unknown may have been applied,
 * so its 503 goes to the screen, as does any 503 without Retry-After or past the budget.
 */
const RETRY_AFTER_BUDGET: RetryAfterBudget = { repeats: 3, totalWaitMs: 5000 };

type RepeatableConfig = InternalAxiosRequestConfig & { veritasRepeats?: number; veritasWaitedMs?: number };

http.interceptors.response.use(undefined, async (error: unknown) => {
  if (!isAxiosError(error) || !error.config || !error.response) throw error;
  const config: RepeatableConfig = error.config;
  const progress = { repeats: config.veritasRepeats ?? 0, waitedMs: config.veritasWaitedMs ?? 0 };
  const header: unknown = error.response.headers['retry-after'];
  const wait = retryAfterWait(
    error.response.status,
    typeof header === 'string' ? header : null,
    progress,
    RETRY_AFTER_BUDGET,
  );
  if (wait === null) throw error;
  if ((config.method ?? 'get').toLowerCase() !== 'get' && !notApplied(error.response.data)) throw error;
  config.veritasRepeats = progress.repeats + 1;
  config.veritasWaitedMs = progress.waitedMs + wait;
  await sleep(wait);
  return http(config);
});

/**
 * The HTTP status a failed call of `http` was answered with; 0 when it got no answer at all
 * (network failure, timeout), as XMLHttpRequest reports it; undefined for an error that is not a
 * failed call.
 */
export function httpStatus(error: unknown): number | undefined {
  if (!isAxiosError(error)) return undefined;
  return error.response?.status ?? 0;
}

/** The field a 400 answer names (`{detail, field}`, docs/errors.md#server-error-bodies), if any. */
export function refusedField(error: unknown): string | undefined {
  if (!isAxiosError(error) || error.response?.status !== 400) return undefined;
  const field: unknown = (error.response.data as { field?: unknown } | undefined)?.field;
  return typeof field === 'string' ? field : undefined;
}

/** The message an error response carries in the first of `fields` present in its body. */
export function serverMessage(
  error: unknown,
  fields: readonly string[] = ['detail', 'error', 'message', 'res'],
): string | undefined {
  const body: unknown = isAxiosError(error) ? error.response?.data : undefined;
  if (!body || typeof body !== 'object') return undefined;
  for (const field of fields) {
    const value = (body as Record<string, unknown>)[field];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return undefined;
}

/** GET user/is_LoggedIn/: true when the session cookie is valid (after a silent refresh if needed). */
export async function checkLoggedIn(): Promise<boolean> {
  try {
    await http.get('user/is_LoggedIn/');
    return true;
  } catch {
    return false;
  }
}

type RoleAnswer = { data: RoleResponse } | { error: unknown };

/** GET user/get_role/, its answer or its failure (never a rejection: a failure is only logged). */
function askRole(): Promise<RoleAnswer> {
  return http.get<RoleResponse>('user/get_role/').then(
    ({ data }) => ({ data }),
    (error: unknown) => ({ error }),
  );
}

/** Fills the session store from get_role's answer; a failed one leaves the user signed in without a role. */
function applyRole(answer: RoleAnswer): void {
  if ('error' in answer) {
    console.error('Could not load the role of the signed-in user', answer.error);
    useSession.getState().setSession({ user: null, role: null, hubCode: null });
    return;
  }
  const { data } = answer;
  useSession.getState().setSession({
    user: data.user,
    role: data.role,
    hubCode: data.hub_code ?? null,
    features: (data.features ?? []).filter((feature) => SERVER_FEATURES.includes(feature)),
  });
}

/**
 * GET user/get_role/ and fill the session store. A failure is only logged
 * (docs/errors.md#session-and-top-bar): the user stays signed in, without a role, so only the screens open to every role are offered.
 */
export async function loadRole(): Promise<void> {
  applyRole(await askRole());
}

/** The logged-in check, then the role: true and a filled store when signed in, else a cleared store. */
export async function loadSession(): Promise<boolean> {
  return settleSession(checkLoggedIn(), null);
}

/**
 * loadSession with the role asked alongside the logged-in check instead of after it, one round trip
 * sooner: for a page load composed for a signed-in user (docs/architecture.md#first-rows), whose
 * session is very likely still good. The role's answer counts only once the check says signed in.
 */
export function loadSessionOfViewer(): Promise<boolean> {
  return settleSession(checkLoggedIn(), askRole());
}

async function settleSession(signedIn: Promise<boolean>, role: Promise<RoleAnswer> | null): Promise<boolean> {
  if (!(await signedIn)) {
    useSession.getState().clearSession();
    return false;
  }
  applyRole(await (role ?? askRole()));
  return true;
}

/** POST user/logout/ and clear the session; a failing logout is only logged (docs/errors.md#session-and-top-bar). */
export async function logout(): Promise<void> {
  try {
    await http.post('user/logout/');
  } catch (error) {
    console.error('Logout failed', error);
  }
  useSession.getState().clearSession();
}

/** GET of a list at `path`; an answer that is not a list is an error. */
export async function getList<T>(path: string): Promise<T[]> {
  const { data } = await http.get<T[]>(path);
  if (!Array.isArray(data)) throw new Error(`${path} did not answer a list`);
  return data;
}
