// Shared setup of the shell's tests: the API answers through the shared client's adapter, the
// Module Federation runtime and /remotes.json are replaced at their boundaries.
import { useSession, type RemoteEntry, type Role } from '@veritas/shared';
import { mockApi, type MockApi } from '@veritas/shared/testing';
import { render } from '@testing-library/react';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { MemoryRouter, useLocation, useNavigationType } from '@veritas/shared';
import REMOTES from '@veritas/shared/remotes.json';
import { App } from '../src/app';

export const mockedLoadRemote = jest.mocked(loadRemote);
export const mockedRegisterRemotes = jest.mocked(registerRemotes);

/** /remotes.json of a console on :8080 serving every remote of remotes.json, each from its own port. */
export const ALL_REMOTES = Object.fromEntries(
  Object.entries(REMOTES).map(([name, { portOffset }]) => [
    name,
    { entry: `http://127.0.0.1:${8080 + portOffset}/mf-manifest.json` },
  ]),
) as Record<keyof typeof REMOTES, RemoteEntry>;

/** Answer GET /remotes.json with `list` (or fail with `status`); a bare URL is the older format. */
export function serveRemoteList(list: Record<string, RemoteEntry | string> = ALL_REMOTES, status = 200): jest.Mock {
  const fetchMock = jest.fn(async () => ({ ok: status === 200, status, json: async () => list }));
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  return fetchMock;
}

/** Every remote page is a heading naming its module, e.g. "devices/ListDevices page". */
export function serveRemotePages(): void {
  mockedLoadRemote.mockImplementation(async (id: string) => ({ default: () => <h1>{id} page</h1> }));
}

export function signedInAs(api: MockApi, role: Role, user = 'asha'): MockApi {
  return api.on('GET user/is_LoggedIn/', [200, {}]).on('GET user/get_role/', [200, { user, role, hub_code: 'BLR01' }]);
}

export function signedOut(api: MockApi): MockApi {
  return api.on('GET user/is_LoggedIn/', [401, {}]).on('POST user/refresh/', [401, {}]);
}

/** Where the router is, and whether it got there by replacing the history entry. */
function LocationProbe() {
  const location = useLocation();
  const navigationType = useNavigationType();
  return (
    <output data-testid="location" data-navigation={navigationType}>
      {location.pathname}
    </output>
  );
}

export function renderShell(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <App />
      <LocationProbe />
    </MemoryRouter>,
  );
}

export function startApi(): MockApi {
  useSession.getState().clearSession();
  return mockApi();
}
