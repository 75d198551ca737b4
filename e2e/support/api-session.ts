// The API as a signed-in user, outside the browser: the session and XSRF cookies kept by a
// Playwright request context, and the XSRF header on each POST, as the console sends them.
import { request, type APIRequestContext } from 'playwright-core';
import { DEMO_PASSWORD } from './browser';

export interface ApiSession {
  api: APIRequestContext;
  /** GETs `url` and answers its JSON; throws on a status other than 2xx. */
  get<T>(url: string): Promise<T>;
  /** POSTs `data` as JSON to `url` and answers its JSON; throws on a status other than 2xx. */
  post<T>(url: string, data?: unknown): Promise<T>;
}

export async function signedInApi(baseURL: string, username: string, password = DEMO_PASSWORD): Promise<ApiSession> {
  const api = await request.newContext({ baseURL });
  await api.get('/veritas/user/is_LoggedIn/');
  const xsrf = async () => (await api.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
  const answer = async <T>(url: string, response: Awaited<ReturnType<APIRequestContext['get']>>) => {
    if (!response.ok()) throw new Error(`${url} answered ${response.status()}: ${await response.text()}`);
    return (await response.json()) as T;
  };
  const session: ApiSession = {
    api,
    get: async (url) => answer(url, await api.get(url)),
    post: async (url, data = {}) =>
      answer(url, await api.post(url, { data, headers: { 'x-xsrf-token': await xsrf() } })),
  };
  await session.post('/veritas/user/login/', { username, password });
  return session;
}
