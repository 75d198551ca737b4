// The composition the shell works from (composition.ts, signed-in-routes.tsx, layout.tsx;
// docs/architecture.md#locating-remotes): the page document's inlined copy, /remotes.json read
// again for the signed-in user, routes and menus that follow a rollout at the next navigation,
// pages no remote declares any more, and the top bar's slot.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useComposition, useSession, type Composition } from '@veritas/shared';
import { FakeEventSource, installFakeEventSource, mockApi, type MockApi } from '@veritas/shared/testing';
import {
  COMPOSITION_REMOTES,
  compositionFor,
  forSignedInUser,
  mockedLoadRemote,
  renderShell,
  serveComposition,
  serveRemotePages,
  signedInAs,
  startApi,
  menuLabels,
  textsShownDuring,
} from '../test/harness';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn(), registerRemotes: jest.fn() }));

let api: MockApi;

afterEach(() => api.restore());

const location = () => screen.getByTestId('location');

// First: the shell's composition module reads the document once, when the signed-in routes load.
describe('the composition inlined in the page document', () => {
  // As the server sends the document: before any of the shell's code runs.
  beforeAll(() => {
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = 'veritas-composition';
    element.textContent = JSON.stringify(compositionFor('admin', 'asha'));
    document.head.append(element);
  });
  afterAll(() => document.getElementById('veritas-composition')?.remove());

  test('is used as it is: the page and menus show with no request to /remotes.json', async () => {
    useSession.getState().clearSession();
    api = signedInAs(mockApi(), 'admin');
    const remotesJson = serveComposition();
    serveRemotePages();
    renderShell('/Upload');

    expect(await screen.findByRole('heading', { name: 'data/Upload page' })).toBeInTheDocument();
    expect(await menuLabels('User Management')).toEqual(['Create User', 'Deactivate User', 'Audit Log']);
    expect(remotesJson).not.toHaveBeenCalled();
  });
});

describe('a composition made for someone else is read again for the signed-in user', () => {
  test("made for nobody (the document's, while the access cookie had expired): 'Checking sign-in…' until the user's own is in, never a redirect", async () => {
    api = signedInAs(startApi(), 'admin');
    act(() => useComposition.setState({ composition: compositionFor(null, null) }));
    const remotesJson = serveComposition();
    serveRemotePages();

    const shown = await textsShownDuring(async () => {
      renderShell('/Upload');
      await screen.findByRole('heading', { name: 'data/Upload page' });
    });
    expect(shown.some((text) => text.includes('Checking sign-in…'))).toBe(true);
    expect(location()).toHaveTextContent('/Upload');
    expect(location()).toHaveAttribute('data-navigation', 'POP');
    expect(remotesJson).toHaveBeenCalledTimes(1);
  });

  test("signing in: the user's own composition is read, and the menus are those of their role", async () => {
    api = startApi()
      .on('GET user/is_LoggedIn/', () => (api.requestsTo('POST user/login/').length ? [200, {}] : [401, {}]))
      .on('POST user/refresh/', [401, {}])
      .on('POST user/login/', [200, { is_webview: true, role: 'admin' }])
      .on('GET user/get_role/', [200, { user: 'ravi', role: 'admin', hub_code: null }]);
    act(() => useComposition.setState({ composition: compositionFor(null, null) }));
    const remotesJson = serveComposition();
    serveRemotePages();
    const user = userEvent.setup();
    renderShell('/login');

    await user.type(screen.getByLabelText('Username'), 'ravi');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByRole('heading', { name: 'dashboard/Dashboard page' })).toBeInTheDocument();
    expect(await menuLabels('Data')).toEqual(['Upload', 'Download APK', 'White Label', 'Download', 'Stats']);
    expect(remotesJson).toHaveBeenCalledTimes(1);
    expect(useComposition.getState().composition?.viewer).toBe('ravi');
  });

  test('/remotes.json answering for nobody while signed in (the access cookie expired): the session is renewed, then it is read again', async () => {
    api = signedInAs(startApi(), 'admin');
    let reads = 0;
    const remotesJson = serveComposition(() => (++reads === 1 ? compositionFor(null, null) : forSignedInUser()));
    serveRemotePages();
    renderShell('/AuditLog');

    expect(await screen.findByRole('heading', { name: 'audit/AuditLog page' })).toBeInTheDocument();
    expect(remotesJson).toHaveBeenCalledTimes(2);
    // The sign-in check, then the renewal.
    expect(api.requestsTo('GET user/is_LoggedIn/')).toHaveLength(2);
  });

  test('none can be read: a card says the console could not be loaded, and Retry reads it again', async () => {
    api = signedInAs(startApi(), 'admin');
    serveComposition(undefined, 503);
    serveRemotePages();
    const user = userEvent.setup();
    renderShell('/Upload');

    const card = await screen.findByRole('alert');
    expect(card).toHaveTextContent('The console could not be loaded');
    // The page's one heading of level one: nothing else of the console is shown.
    expect(within(card).getByRole('heading', { level: 1 })).toHaveTextContent('The console could not be loaded');
    expect(location()).toHaveTextContent('/Upload');

    const remotesJson = serveComposition();
    await user.click(within(card).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'data/Upload page' })).toBeInTheDocument();
    expect(remotesJson).toHaveBeenCalledTimes(1);
  });

  test('a read that never answers fails after COMPOSITION_READ_LIMIT_MS (20 s): the card shows, and Retry reads it afresh rather than join the hung read', async () => {
    // Imported here: the module reads the page document once, which the first test above sets.
    const { COMPOSITION_READ_LIMIT_MS } = await import('./composition');
    expect(COMPOSITION_READ_LIMIT_MS).toBe(20_000);
    jest.useFakeTimers();
    try {
      api = signedInAs(startApi(), 'admin');
      // The server takes the request and never answers: only the read's own signal ends it.
      const hung = jest.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
      );
      globalThis.fetch = hung as unknown as typeof fetch;
      serveRemotePages();
      const user = userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
      renderShell('/Upload');
      await waitFor(() => expect(hung).toHaveBeenCalledTimes(1));
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();

      await act(() => jest.advanceTimersByTimeAsync(COMPOSITION_READ_LIMIT_MS));
      const card = screen.getByRole('alert');
      expect(card).toHaveTextContent('The console could not be loaded');

      const remotesJson = serveComposition();
      await user.click(within(card).getByRole('button', { name: 'Retry' }));
      expect(await screen.findByRole('heading', { name: 'data/Upload page' })).toBeInTheDocument();
      expect(remotesJson).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('routes and menus come from the composition', () => {
  let removeFake: () => void;
  beforeEach(() => {
    removeFake = installFakeEventSource();
  });
  afterEach(() => removeFake());

  /** A rollout: the returns remote adds a page and its Data entry, and White Label is retired. */
  function afterRollout(): Composition {
    const before = forSignedInUser();
    return {
      ...before,
      remotes: { ...COMPOSITION_REMOTES, returns: { entry: 'http://127.0.0.1:8087/mf-manifest.json' } },
      pages: [
        ...before.pages.filter((page) => page.path !== 'WhiteLabel'),
        { path: 'ReturnsDesk', remote: 'returns', module: './ReturnsDesk', title: 'Returns Desk' },
      ],
      menus: [
        ...before.menus.filter((entry) => entry.label !== 'White Label'),
        { menu: 'Data', label: 'Returns Desk', remote: 'returns', page: 'ReturnsDesk' },
      ],
      unavailable: ['WhiteLabel'],
    };
  }

  test('an entry added to the composition appears at the next navigation after a remotes event; one removed disappears', async () => {
    api = startApi().on('GET user/is_LoggedIn/', [200, {}]);
    api.on('GET user/get_role/', [200, { user: 'asha', role: 'admin', hub_code: null, features: ['live-events'] }]);
    let rolledOut = false;
    const remotesJson = serveComposition(() => (rolledOut ? afterRollout() : forSignedInUser()));
    serveRemotePages();
    const user = userEvent.setup();
    renderShell('/Dashboard');
    await screen.findByRole('heading', { name: 'dashboard/Dashboard page' });
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    act(() => FakeEventSource.latest!.open());
    const before = ['Upload', 'Download APK', 'White Label', 'Download', 'Stats'];
    expect(await menuLabels('Data')).toEqual(before);

    rolledOut = true;
    act(() => FakeEventSource.latest!.emit('remotes', { remote: 'returns' }, 1));
    // Nothing changes under the user's hands: the open menu and page stay as they are.
    expect(await menuLabels('Data')).toEqual(before);

    await user.click(screen.getByRole('button', { name: 'Data' }));
    await user.click(screen.getByRole('menuitem', { name: 'Stats' }));
    await screen.findByRole('heading', { name: 'devices/ListDevices page' });
    await waitFor(() => expect(remotesJson).toHaveBeenCalledTimes(2));
    expect(await menuLabels('Data')).toEqual(['Upload', 'Download APK', 'Download', 'Stats', 'Returns Desk']);

    await user.click(screen.getByRole('button', { name: 'Data' }));
    await user.click(screen.getByRole('menuitem', { name: 'Returns Desk' }));
    expect(await screen.findByRole('heading', { name: 'returns/ReturnsDesk page' })).toBeInTheDocument();
    expect(location()).toHaveTextContent('/ReturnsDesk');
  });
});

describe('a path that is no page of the composition', () => {
  test('one in `unavailable` (any case) says the page is not available, with a link to the Dashboard that works', async () => {
    api = signedInAs(startApi(), 'executive');
    serveComposition(() => ({ ...forSignedInUser(), unavailable: ['ReturnsDesk'] }));
    serveRemotePages();
    const user = userEvent.setup();
    renderShell('/returnsdesk');

    expect(await screen.findByRole('heading', { level: 1, name: 'This page is not available' })).toBeInTheDocument();
    expect(screen.getByText('The part of the console that provided it is not deployed any more.')).toBeInTheDocument();
    expect(location()).toHaveTextContent('/returnsdesk');

    await user.click(screen.getByRole('link', { name: 'Go to the Dashboard' }));
    expect(await screen.findByRole('heading', { name: 'dashboard/Dashboard page' })).toBeInTheDocument();
    expect(location()).toHaveTextContent('/Dashboard');
  });

  test('any other leads to the Dashboard, replacing the history entry', async () => {
    api = signedInAs(startApi(), 'executive');
    serveComposition(() => ({ ...forSignedInUser(), unavailable: ['ReturnsDesk'] }));
    serveRemotePages();
    renderShell('/Upload');

    expect(await screen.findByRole('heading', { name: 'dashboard/Dashboard page' })).toBeInTheDocument();
    expect(location()).toHaveTextContent('/Dashboard');
    expect(location()).toHaveAttribute('data-navigation', 'REPLACE');
  });

  test('the home is the page the composition names: the shell names none itself', async () => {
    api = signedInAs(startApi(), 'executive');
    serveComposition(() => ({ ...forSignedInUser(), home: 'Download' }));
    serveRemotePages();
    renderShell('/');

    expect(await screen.findByRole('heading', { name: 'data/Download page' })).toBeInTheDocument();
    expect(location()).toHaveTextContent('/Download');
  });

  test('while no served page is the home, `/` says the page is not available, with no link', async () => {
    api = signedInAs(startApi(), 'executive');
    serveComposition(() => ({
      ...forSignedInUser(),
      pages: forSignedInUser().pages.filter((page) => page.path !== 'Dashboard'),
      unavailable: ['Dashboard'],
      home: null,
    }));
    serveRemotePages();
    renderShell('/');

    expect(await screen.findByRole('heading', { level: 1, name: 'This page is not available' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Go to/ })).not.toBeInTheDocument();
    expect(location()).toHaveTextContent('/');
  });
});

test("the top bar renders the composition's top-bar.item extensions with the user and role, before the user's name", async () => {
  api = signedInAs(startApi(), 'incharge', 'meera');
  serveComposition(() => ({
    ...forSignedInUser(),
    extensions: [{ slot: 'top-bar.item', remote: 'audit', module: './TopBarBadge' }],
  }));
  mockedLoadRemote.mockImplementation(async (id: string) =>
    id === 'audit/TopBarBadge'
      ? { default: ({ user, role }: { user: string; role: string }) => <span>{`Badge of ${user} (${role})`}</span> }
      : { default: () => <h1>{id} page</h1> },
  );
  renderShell('/Dashboard');

  const badge = await screen.findByText('Badge of meera (incharge)');
  expect(screen.getByRole('banner')).toContainElement(badge);
  expect(badge.compareDocumentPosition(screen.getByText('meera')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
});
