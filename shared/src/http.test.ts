import {
  checkLoggedIn,
  http,
  httpStatus,
  refusedField,
  loadSession,
  loadSessionOfViewer,
  logout,
  serverMessage,
  setLoginRedirect,
} from './http';
import { waitFor } from '@testing-library/react';
import { AxiosError } from 'axios';
import { useSession } from './session';
import { mockApi, type MockApi } from './testing/mock-api';

let api: MockApi;
let redirect: jest.Mock;

beforeEach(() => {
  api = mockApi();
  redirect = jest.fn();
  setLoginRedirect(redirect);
  useSession.getState().setSession({ user: 'asha', role: 'admin', hubCode: 'BLR01' });
  window.history.pushState({}, '', '/ListDevices');
});

afterEach(() => api.restore());

/** 401 until the refresh call has succeeded, then 200. */
function expiringAccess() {
  let refreshed = false;
  api.on('POST user/refresh/', () => {
    refreshed = true;
    return [200, {}];
  });
  return (body: unknown) => () => (refreshed ? [200, body] : [401, { detail: 'expired' }]) as [number, unknown];
}

describe('client defaults (docs/architecture.md#request-flow)', () => {
  test('calls go under /veritas with cookies, JSON and the XSRF cookie/header names', () => {
    expect(http.defaults.baseURL).toBe('/veritas');
    expect(http.defaults.withCredentials).toBe(true);
    expect(http.defaults.headers['Content-Type']).toBe('application/json');
    expect(http.defaults.xsrfCookieName).toBe('XSRF-TOKEN');
    expect(http.defaults.xsrfHeaderName).toBe('X-XSRF-TOKEN');
    expect(http.defaults.timeout ?? 0).toBe(0);
  });

  /** The headers the browser's XMLHttpRequest was given for one POST (the network is not reached). */
  async function headersSentFor(url: string): Promise<Record<string, string>> {
    api.restore(); // the real XMLHttpRequest path, where axios adds the XSRF header
    const headers: Record<string, string> = {};
    const setHeader = jest.spyOn(XMLHttpRequest.prototype, 'setRequestHeader').mockImplementation((name, value) => {
      headers[name] = value;
    });
    const send = jest.spyOn(XMLHttpRequest.prototype, 'send').mockImplementation(function (this: XMLHttpRequest) {
      this.dispatchEvent(new ProgressEvent('error'));
    });
    document.cookie = 'XSRF-TOKEN=token-123; path=/';
    try {
      await http.post(url).catch(() => undefined);
      return headers;
    } finally {
      setHeader.mockRestore();
      send.mockRestore();
      document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
    }
  }

  test('a same-origin POST carries the XSRF-TOKEN cookie as the X-XSRF-TOKEN header', async () => {
    expect(await headersSentFor('user/logout/')).toMatchObject({ 'X-XSRF-TOKEN': 'token-123' });
  });

  test('the XSRF token is never sent to another origin', async () => {
    expect(await headersSentFor('https://elsewhere.example/collect')).not.toHaveProperty('X-XSRF-TOKEN');
  });
});

describe('silent refresh after a 401 (docs/sessions.md#refresh-in-the-console)', () => {
  test('a 401 refreshes once and replays the request', async () => {
    const answer = expiringAccess();
    api.on('GET api/get_status/', answer([{ id: 1 }]));

    const { data } = await http.get('api/get_status/');

    expect(data).toEqual([{ id: 1 }]);
    expect(api.requestsTo('POST user/refresh/')).toHaveLength(1);
    expect(api.requestsTo('GET api/get_status/')).toHaveLength(2);
  });

  test('N concurrent 401s share exactly one refresh call and all N are replayed', async () => {
    const answer = expiringAccess();
    api
      .on('GET api/get_status/', answer('status'))
      .on('GET user/get_users/', answer('users'))
      .on('GET user/get_groups/', answer('groups'));

    const results = await Promise.all([
      http.get('api/get_status/'),
      http.get('user/get_users/'),
      http.get('user/get_groups/'),
      http.get('api/get_status/'),
    ]);

    expect(results.map((r) => r.data)).toEqual(['status', 'users', 'groups', 'status']);
    expect(api.requestsTo('POST user/refresh/')).toHaveLength(1);
    expect(api.requestsTo('GET api/get_status/')).toHaveLength(4);
  });

  describe('any burst of 401s costs exactly one refresh', () => {
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    /**
     * A server whose access cookie has expired: a request is judged by the cookie it was sent
     * with (valid once a refresh has completed), and answered after `delayOf(n)` ms, so answers
     * arrive before, during and after the refresh, which itself takes 20 ms.
     */
    function expiredCookieServer(delayOf: (n: number) => number) {
      let cookieValid = false;
      let sent = 0;
      api.on('POST user/refresh/', async () => {
        await wait(20);
        cookieValid = true;
        return [200, {}];
      });
      api.on('GET api/get_status/', async () => {
        const validWhenSent = cookieValid;
        await wait(delayOf(sent++));
        return validWhenSent ? [200, 'ok'] : [401, { detail: 'expired' }];
      });
      return { expire: () => (cookieValid = false) };
    }

    test('100 concurrent calls with an expired access cookie: 1 refresh, all 100 succeed', async () => {
      // Answers spread over 0–60 ms: most 401s arrive after the refresh has already completed.
      expiredCookieServer((n) => (n * 7) % 61);

      const results = await Promise.all(Array.from({ length: 100 }, () => http.get('api/get_status/')));

      expect(results.every((r) => r.data === 'ok')).toBe(true);
      expect(api.requestsTo('POST user/refresh/')).toHaveLength(1);
      expect(api.requestsTo('GET api/get_status/')).toHaveLength(200);
    });

    test('a call sent while the refresh is under way waits for that refresh instead of starting another', async () => {
      expiredCookieServer(() => 0);
      const first = http.get('api/get_status/');
      await wait(5); // the refresh is now under way
      const duringRefresh = await Promise.all([http.get('api/get_status/'), http.get('api/get_status/')]);

      expect((await first).data).toBe('ok');
      expect(duringRefresh.map((r) => r.data)).toEqual(['ok', 'ok']);
      expect(api.requestsTo('POST user/refresh/')).toHaveLength(1);
    });

    test('a 401 for a call sent after the last refresh completed starts a new refresh', async () => {
      const server = expiredCookieServer(() => 0);
      await http.get('api/get_status/');
      server.expire(); // the renewed access cookie expires in turn

      const { data } = await http.get('api/get_status/');

      expect(data).toBe('ok');
      expect(api.requestsTo('POST user/refresh/')).toHaveLength(2);
    });
  });

  test('a failed refresh clears the session and redirects to /login once for all waiting calls', async () => {
    api.on('POST user/refresh/', [401, { detail: 'refresh expired' }]).on('GET api/get_status/', [401, {}]);

    const outcomes = await Promise.allSettled([
      http.get('api/get_status/'),
      http.get('api/get_status/'),
      http.get('api/get_status/'),
    ]);

    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
    expect(api.requestsTo('POST user/refresh/')).toHaveLength(1);
    expect(redirect).toHaveBeenCalledTimes(1);
    expect(useSession.getState()).toMatchObject({ isAuthenticated: false, user: null, role: null, hubCode: null });
  });

  describe('a renewal the server could not answer keeps the session (docs/errors.md#session-and-top-bar)', () => {
    test('refresh answered 503 (database away): no sign-out, the call fails with the 503', async () => {
      api
        .on('POST user/refresh/', [503, { detail: 'The database is unavailable. Try again in a moment.' }])
        .on('GET api/get_status/', [401, { detail: 'expired' }]);

      await expect(http.get('api/get_status/')).rejects.toMatchObject({ response: { status: 503 } });

      expect(redirect).not.toHaveBeenCalled();
      expect(useSession.getState()).toMatchObject({ isAuthenticated: true, user: 'asha', role: 'admin' });
    });

    test('refresh with no answer at all (network down): no sign-out', async () => {
      api
        .on('POST user/refresh/', ({ config }) => {
          throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, config);
        })
        .on('GET api/get_status/', [401, { detail: 'expired' }]);

      await expect(http.get('api/get_status/')).rejects.toMatchObject({ code: AxiosError.ERR_NETWORK });

      expect(redirect).not.toHaveBeenCalled();
      expect(useSession.getState().isAuthenticated).toBe(true);
    });

    test('once the server is back, the next 401 renews and the call succeeds', async () => {
      let databaseBack = false;
      let refreshed = false;
      api
        .on('POST user/refresh/', () => {
          if (!databaseBack) return [503, { detail: 'The database is unavailable. Try again in a moment.' }];
          refreshed = true;
          return [200, {}];
        })
        .on('GET api/get_status/', () => (refreshed ? [200, { ok: true }] : [401, { detail: 'expired' }]));

      await expect(http.get('api/get_status/')).rejects.toMatchObject({ response: { status: 503 } });
      databaseBack = true;
      await expect(http.get('api/get_status/')).resolves.toMatchObject({ data: { ok: true } });

      expect(api.requestsTo('POST user/refresh/')).toHaveLength(2);
      expect(redirect).not.toHaveBeenCalled();
    });
  });

  test('the failing call rejects with its own 401, not the refresh error', async () => {
    api.on('POST user/refresh/', [500, {}]).on('GET api/get_status/', [401, { detail: 'expired' }]);
    await expect(http.get('api/get_status/')).rejects.toMatchObject({ response: { status: 401 } });
  });

  test('a replayed request that gets 401 again is not refreshed a second time', async () => {
    api.on('POST user/refresh/', [200, {}]).on('GET api/get_status/', [401, {}]);

    await expect(http.get('api/get_status/')).rejects.toMatchObject({ response: { status: 401 } });

    expect(api.requestsTo('POST user/refresh/')).toHaveLength(1);
    expect(api.requestsTo('GET api/get_status/')).toHaveLength(2);
  });

  test('no refresh for a 401 from user/login/ (wrong credentials)', async () => {
    api.on('POST user/login/', [401, {}]);
    await expect(http.post('user/login/', { username: 'a', password: 'b' })).rejects.toMatchObject({
      response: { status: 401 },
    });
    expect(api.requestsTo('POST user/refresh/')).toHaveLength(0);
  });

  test('no refresh for a 401 from user/refresh/ itself', async () => {
    api.on('POST user/refresh/', [401, {}]);
    await expect(http.post('user/refresh/')).rejects.toMatchObject({ response: { status: 401 } });
    expect(api.requestsTo('POST user/refresh/')).toHaveLength(1);
    expect(redirect).not.toHaveBeenCalled();
  });

  test('no refresh while on /login', async () => {
    window.history.pushState({}, '', '/login');
    api.on('GET user/is_LoggedIn/', [401, {}]);
    await expect(http.get('user/is_LoggedIn/')).rejects.toMatchObject({ response: { status: 401 } });
    expect(api.requestsTo('POST user/refresh/')).toHaveLength(0);
  });

  test('no refresh for other failures (403, 500)', async () => {
    api.on('POST user/create_group/', [403, {}]).on('GET api/get_status/', [500, {}]);
    await expect(http.post('user/create_group/', {})).rejects.toMatchObject({ response: { status: 403 } });
    await expect(http.get('api/get_status/')).rejects.toMatchObject({ response: { status: 500 } });
    expect(api.requestsTo('POST user/refresh/')).toHaveLength(0);
  });
});

describe('session helpers', () => {
  test('checkLoggedIn: 200 from user/is_LoggedIn/ means signed in, a failure means not', async () => {
    api.on('GET user/is_LoggedIn/', [200, {}]);
    await expect(checkLoggedIn()).resolves.toBe(true);
    api.on('GET user/is_LoggedIn/', [500, {}]);
    await expect(checkLoggedIn()).resolves.toBe(false);
  });

  test('loadSession fills the store from user/get_role/, hub_code becoming hubCode', async () => {
    useSession.getState().clearSession();
    api
      .on('GET user/is_LoggedIn/', [200, {}])
      .on('GET user/get_role/', [200, { user: 'ravi', role: 'incharge', hub_code: 'DEL02' }]);

    await expect(loadSession()).resolves.toBe(true);

    expect(useSession.getState()).toMatchObject({
      user: 'ravi',
      role: 'incharge',
      hubCode: 'DEL02',
      isAuthenticated: true,
    });
  });

  test("loadSession keeps the server's features it knows, and none when the answer has none (a server that follows the spec alone)", async () => {
    api
      .on('GET user/is_LoggedIn/', [200, {}])
      .on('GET user/get_role/', [
        200,
        { user: 'ravi', role: 'admin', hub_code: null, features: ['device-pages', 'time-travel', 'dashboard-figures'] },
      ]);
    await loadSession();
    expect(useSession.getState().features).toEqual(['device-pages', 'dashboard-figures']);

    api.on('GET user/get_role/', [200, { user: 'ravi', role: 'admin', hub_code: null }]);
    await loadSession();
    expect(useSession.getState().features).toEqual([]);
  });

  test('loadSession clears the store when the logged-in check fails and does not ask for the role', async () => {
    window.history.pushState({}, '', '/login');
    api.on('GET user/is_LoggedIn/', [401, {}]);

    await expect(loadSession()).resolves.toBe(false);

    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(api.requestsTo('GET user/get_role/')).toHaveLength(0);
  });

  test('loadSessionOfViewer asks for the role alongside the logged-in check, and fills the store once the check says signed in', async () => {
    useSession.getState().clearSession();
    let answerCheck: () => void = () => {};
    const checked = new Promise<void>((resolve) => (answerCheck = resolve));
    api
      .on('GET user/is_LoggedIn/', async () => {
        await checked;
        return [200, {}];
      })
      .on('GET user/get_role/', [200, { user: 'ravi', role: 'incharge', hub_code: 'DEL02' }]);

    const session = loadSessionOfViewer();
    await waitFor(() => expect(api.requestsTo('GET user/get_role/')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    // The role has answered; the check has not, so nothing is signed in yet.
    expect(useSession.getState().isAuthenticated).toBe(false);
    answerCheck();

    await expect(session).resolves.toBe(true);
    expect(useSession.getState()).toMatchObject({ user: 'ravi', role: 'incharge', isAuthenticated: true });
  });

  test("loadSessionOfViewer leaves the store cleared when the check fails, whatever the role's answer", async () => {
    window.history.pushState({}, '', '/login');
    api
      .on('GET user/is_LoggedIn/', [401, {}])
      .on('GET user/get_role/', [200, { user: 'ravi', role: 'admin', hub_code: null }]);

    await expect(loadSessionOfViewer()).resolves.toBe(false);

    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(useSession.getState().role).toBeNull();
  });

  test('a failing role fetch is only logged: the user stays signed in without a role', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => {});
    api.on('GET user/is_LoggedIn/', [200, {}]).on('GET user/get_role/', [500, {}]);

    await expect(loadSession()).resolves.toBe(true);

    expect(useSession.getState()).toMatchObject({ isAuthenticated: true, role: null });
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });

  test('logout posts user/logout/ and clears the session', async () => {
    api.on('POST user/logout/', [200, {}]);
    await logout();
    expect(api.requestsTo('POST user/logout/')).toHaveLength(1);
    expect(useSession.getState().isAuthenticated).toBe(false);
  });

  test('a failing logout is only logged and still clears the session', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => {});
    api.on('POST user/logout/', [500, {}]);
    await expect(logout()).resolves.toBeUndefined();
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });

  test('serverMessage takes the first named field of the error body', async () => {
    api.on('POST user/create/', [400, { detail: 'Username taken', error: 'other' }]);
    const error = await http.post('user/create/', {}).catch((e: unknown) => e);
    expect(serverMessage(error)).toBe('Username taken');
    expect(serverMessage(error, ['error'])).toBe('other');
    expect(serverMessage(error, ['res'])).toBeUndefined();
    expect(serverMessage(new Error('network'))).toBeUndefined();
  });

  test('refusedField: the field a 400 names, and none for another status or body', async () => {
    api
      .on('POST user/create/', [400, { detail: 'Give a username.', field: 'username' }])
      .on('POST user/create_group/', [409, { detail: 'taken', field: 'code' }])
      .on('POST user/reset_password/', [400, { detail: 'bad' }]);
    const failure = (path: string) => http.post(path, {}).catch((e: unknown) => e);
    expect(refusedField(await failure('user/create/'))).toBe('username');
    expect(refusedField(await failure('user/create_group/'))).toBeUndefined();
    expect(refusedField(await failure('user/reset_password/'))).toBeUndefined();
    expect(refusedField(new Error('network'))).toBeUndefined();
  });

  test('httpStatus: the status a failed call was answered with, 0 without an answer, undefined for other errors', async () => {
    api.on('POST user/create/', [403, { detail: 'no' }]).on('GET api/get_status/', () => {
      throw Object.assign(new Error('Network Error'), { isAxiosError: true, code: 'ERR_NETWORK' });
    });
    expect(httpStatus(await http.post('user/create/', {}).catch((e: unknown) => e))).toBe(403);
    expect(httpStatus(await http.get('api/get_status/').catch((e: unknown) => e))).toBe(0);
    expect(httpStatus(new TypeError('bug'))).toBeUndefined();
    expect(httpStatus(null)).toBeUndefined();
  });
});

describe('503 with Retry-After (docs/errors.md#database-unavailable)', () => {
  const unavailable = (outcome: string, retryAfter = '0'): [number, unknown, Record<string, string>] => [
    503,
    { detail: 'The database is unavailable. Try again in a moment.', outcome },
    { 'retry-after': retryAfter },
  ];

  test('a GET is repeated after the wait and gets the answer', async () => {
    let calls = 0;
    api.on('GET user/get_users/', () => (++calls < 3 ? unavailable('not-applied') : [200, []]));
    await expect(http.get('user/get_users/')).resolves.toMatchObject({ status: 200 });
    expect(api.requestsTo('GET user/get_users/')).toHaveLength(3);
  });

  test('a GET is repeated at most 3 times, then the 503 is the answer', async () => {
    api.on('GET user/get_users/', unavailable('not-applied'));
    await expect(http.get('user/get_users/')).rejects.toMatchObject({ response: { status: 503 } });
    expect(api.requestsTo('GET user/get_users/')).toHaveLength(4);
  });

  test('no repeat past 5 s of waiting in all, nor without Retry-After', async () => {
    api.on('GET user/get_users/', unavailable('not-applied', '6'));
    await expect(http.get('user/get_users/')).rejects.toMatchObject({ response: { status: 503 } });
    api.on('GET user/get_groups/', [503, { detail: 'down' }]);
    await expect(http.get('user/get_groups/')).rejects.toMatchObject({ response: { status: 503 } });
    expect(api.requestsTo('GET user/get_users/')).toHaveLength(1);
    expect(api.requestsTo('GET user/get_groups/')).toHaveLength(1);
  });

  test('a POST is repeated when it was not applied, with the same body', async () => {
    let calls = 0;
    api.on('POST user/create_group/', () => (++calls < 2 ? unavailable('not-applied') : [201, {}]));
    await expect(http.post('user/create_group/', { code: 'HUB9' })).resolves.toMatchObject({ status: 201 });
    expect(api.requestsTo('POST user/create_group/').map((r) => r.body)).toEqual([{ code: 'HUB9' }, { code: 'HUB9' }]);
  });

  test('a POST whose outcome is unknown is not repeated: it may have been applied', async () => {
    api.on('POST user/create_group/', unavailable('unknown'));
    await expect(http.post('user/create_group/', { code: 'HUB9' })).rejects.toMatchObject({
      response: { status: 503 },
    });
    expect(api.requestsTo('POST user/create_group/')).toHaveLength(1);
  });
});
