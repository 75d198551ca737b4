// Shared setup of the shell's tests: the API answers through the shared client's adapter, the
// Module Federation runtime and /remotes.json are replaced at their boundaries.
import { useComposition, useSession, type Composition, type Role } from '@veritas/shared';
import { queryClient } from '@veritas/shared/query';
import { mockApi, type MockApi } from '@veritas/shared/testing';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { MemoryRouter, useLocation, useNavigationType } from '@veritas/shared';
import { App } from '../src/app';
import { compositionFor } from './composition';

export { COMPOSITION_REMOTES, compositionFor } from './composition';

// Each test starts with the empty query cache of a page load: the layout clears it only when a
// session ends.
afterEach(() => queryClient.clear());

export const mockedLoadRemote = jest.mocked(loadRemote);
export const mockedRegisterRemotes = jest.mocked(registerRemotes);

/** The composition the server makes for whoever the session store says is signed in. */
export const forSignedInUser = (): Composition => {
  const { user, role } = useSession.getState();
  return compositionFor(role, user);
};

/**
 * Answer GET /remotes.json with `answer` (by default the composition of the signed-in user, made
 * when asked), or fail with `status`.
 */
export function serveComposition(answer: Composition | (() => Composition) = forSignedInUser, status = 200): jest.Mock {
  const fetchMock = jest.fn(async () => ({
    ok: status === 200,
    status,
    json: async () => (typeof answer === 'function' ? answer() : answer),
  }));
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

/** Nobody signed in, and no composition at hand: each test reads its own. */
export function startApi(): MockApi {
  useSession.getState().clearSession();
  useComposition.setState({ composition: null });
  return mockApi();
}

/** Opens a top-bar menu and reads its items. */
export async function menuLabels(menu: string): Promise<(string | null)[]> {
  await userEvent.click(await screen.findByRole('button', { name: menu }));
  const labels = within(screen.getByRole('menu', { name: menu }))
    .getAllByRole('menuitem')
    .map((item) => item.textContent);
  await userEvent.keyboard('{Escape}');
  return labels;
}

/** Every text the document showed while `run` went on. */
export async function textsShownDuring(run: () => Promise<void>): Promise<string[]> {
  const shown: string[] = [];
  const observer = new MutationObserver(() => shown.push(document.body.textContent ?? ''));
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  await run();
  observer.disconnect();
  return shown;
}
