import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Role } from '@veritas/shared';
import { queryClient } from '@veritas/shared/query';
import type { MockApi } from '@veritas/shared/testing';
import {
  mockedLoadRemote,
  renderShell,
  serveComposition,
  serveRemotePages,
  signedInAs,
  signedOut,
  startApi,
  menuLabels,
} from '../test/harness';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn(), registerRemotes: jest.fn() }));

let api: MockApi;

beforeEach(() => {
  api = startApi();
  serveComposition();
  serveRemotePages();
});

afterEach(() => api.restore());

const location = () => screen.getByTestId('location');

async function expectAt(path: string, navigation?: 'REPLACE' | 'PUSH') {
  await waitFor(() => expect(location()).toHaveTextContent(path));
  if (navigation) expect(location()).toHaveAttribute('data-navigation', navigation);
}

describe('redirects', () => {
  test('an unauthenticated user opening a protected route is sent to /login, replacing the history entry', async () => {
    signedOut(api);
    renderShell('/ListDevices');

    await expectAt('/login', 'REPLACE');
    expect(screen.getByLabelText('Username')).toBeInTheDocument();
    expect(mockedLoadRemote).not.toHaveBeenCalled();
  });

  test('/login is the main landmark of its page, which holds the login form', async () => {
    signedOut(api);
    renderShell('/login');
    const main = await screen.findByRole('main');
    expect(within(main).getByRole('form', { name: 'Veritas' })).toContainElement(screen.getByLabelText('Username'));
  });

  test('a signed-in user opening /login is sent to / and on to the Dashboard', async () => {
    signedInAs(api, 'admin');
    renderShell('/login');

    await expectAt('/Dashboard', 'REPLACE');
    expect(await screen.findByRole('heading', { name: 'dashboard/Dashboard page' })).toBeInTheDocument();
  });

  test('signing in on /login leads to the Dashboard', async () => {
    api
      .on('GET user/is_LoggedIn/', () => (api.requestsTo('POST user/login/').length ? [200, {}] : [401, {}]))
      .on('POST user/login/', [200, { is_webview: true, role: 'incharge' }])
      .on('GET user/get_role/', [200, { user: 'ravi', role: 'incharge', hub_code: 'DEL02' }]);
    const user = userEvent.setup();
    renderShell('/login');

    await user.type(screen.getByLabelText('Username'), 'ravi');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    await expectAt('/Dashboard');
    expect(await screen.findByText('ravi')).toBeInTheDocument();
  });

  test('the index route redirects to the Dashboard', async () => {
    signedInAs(api, 'executive');
    renderShell('/');
    await expectAt('/Dashboard', 'REPLACE');
  });

  test('a path that is no page of the composition redirects to the Dashboard', async () => {
    signedInAs(api, 'executive');
    renderShell('/NoSuchPage');
    await expectAt('/Dashboard', 'REPLACE');
  });
});

describe('layout', () => {
  test('top bar: title linking home, user name, role label, logout button; footer text', async () => {
    signedInAs(api, 'central_ops', 'meera');
    renderShell('/Download');

    expect(await screen.findByRole('link', { name: 'Veritas' })).toHaveAttribute('href', '/');
    expect(screen.getByText('meera')).toBeInTheDocument();
    expect(screen.getByText('central_ops')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toHaveTextContent(
      '© 2025 Designed and developed by Automation COE, OneDesign',
    );
    expect(await screen.findByRole('heading', { name: 'data/Download page' })).toBeInTheDocument();
  });

  test('the mobile menu toggle opens and closes the navigation', async () => {
    signedInAs(api, 'admin');
    const user = userEvent.setup();
    renderShell('/Dashboard');

    const toggle = await screen.findByRole('button', { name: 'Menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('navigation', { name: 'Main' })).toHaveAttribute('data-open', 'true');
  });
});

/** Remotes that load: each page a heading naming it, and data/downloadApk's default export `download`. */
const loadRemotesWithApkDownload = (download: () => Promise<void>) =>
  mockedLoadRemote.mockImplementation(async (id: string) =>
    id === 'data/downloadApk' ? { default: download } : { default: () => <h1>{id} page</h1> },
  );

// The server composes each role's menus (the fixture of test/composition.ts): these check that the
// shell shows the composition's entries, in its order, as docs/screens.md lists them.
describe('menus per role (docs/screens.md#top-bar)', () => {
  test.each<Role>(['admin', 'super_admin'])(
    '%s: Data menu has Upload, Download APK, White Label, Download, Stats; User Management adds Audit Log',
    async (role) => {
      signedInAs(api, role);
      renderShell('/Dashboard');

      expect(await menuLabels('Data')).toEqual(['Upload', 'Download APK', 'White Label', 'Download', 'Stats']);
      expect(await menuLabels('User Management')).toEqual(['Create User', 'Deactivate User', 'Audit Log']);
    },
  );

  test.each<Role>(['executive', 'incharge', 'central_ops'])(
    '%s: Data menu has only Download and Stats',
    async (role) => {
      signedInAs(api, role);
      renderShell('/Dashboard');

      expect(await menuLabels('Data')).toEqual(['Download', 'Stats']);
      expect(await menuLabels('User Management')).toEqual(['Create User', 'Deactivate User']);
    },
  );

  test('a menu is an accessible menu button: aria-expanded, focus on the first item, arrow keys, Escape (focus back), outside click', async () => {
    signedInAs(api, 'admin');
    const user = userEvent.setup();
    renderShell('/Dashboard');
    const data = await screen.findByRole('button', { name: 'Data' });
    expect(data).toHaveAttribute('aria-haspopup', 'menu');

    await user.click(data);
    expect(data).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('menu', { name: 'Data' })).toBeVisible();
    expect(screen.getByRole('menuitem', { name: 'Upload' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Download APK' })).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Stats' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('menuitem', { name: 'Upload' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(data).toHaveAttribute('aria-expanded', 'false');
    expect(data).toHaveFocus();

    await user.click(data);
    await user.click(screen.getByRole('contentinfo'));
    expect(data).toHaveAttribute('aria-expanded', 'false');

    // From the button, ArrowDown opens the menu on its first item, ArrowUp on its last.
    data.focus();
    await user.keyboard('{ArrowDown}');
    expect(data).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('menuitem', { name: 'Upload' })).toHaveFocus();
    await user.keyboard('{Escape}');
    await user.keyboard('{ArrowUp}');
    expect(data).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('menuitem', { name: 'Stats' })).toHaveFocus();
  });

  test('choosing a menu item opens its route and closes the menu', async () => {
    signedInAs(api, 'admin');
    const user = userEvent.setup();
    renderShell('/Dashboard');

    await user.click(await screen.findByRole('button', { name: 'Data' }));
    await user.click(screen.getByRole('menuitem', { name: 'Stats' }));

    await expectAt('/ListDevices', 'PUSH');
    expect(await screen.findByRole('heading', { name: 'devices/ListDevices page' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Data' })).toHaveAttribute('aria-expanded', 'false');
  });

  test('a command entry (Download APK) runs the default export of its module, data/downloadApk', async () => {
    signedInAs(api, 'super_admin');
    const download = jest.fn(async () => {});
    loadRemotesWithApkDownload(download);
    const user = userEvent.setup();
    renderShell('/Dashboard');

    await user.click(await screen.findByRole('button', { name: 'Data' }));
    await user.click(screen.getByRole('menuitem', { name: 'Download APK' }));

    await waitFor(() => expect(download).toHaveBeenCalledTimes(1));
  });

  test('a command entry opens no page: by keyboard or pointer, the focus goes back to its menu button', async () => {
    signedInAs(api, 'admin');
    loadRemotesWithApkDownload(async () => {});
    const user = userEvent.setup();
    renderShell('/Dashboard');
    const data = await screen.findByRole('button', { name: 'Data' });

    data.focus();
    await user.keyboard('{Enter}{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Download APK' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(data).toHaveAttribute('aria-expanded', 'false');
    expect(data).toHaveFocus();

    await user.click(data);
    await user.click(screen.getByRole('menuitem', { name: 'Download APK' }));
    expect(data).toHaveFocus();
  });

  test('a command chosen in the mobile menu leaves the focus on the Menu button, which closes the menu', async () => {
    signedInAs(api, 'admin');
    loadRemotesWithApkDownload(async () => {});
    const user = userEvent.setup();
    renderShell('/Dashboard');
    const toggle = await screen.findByRole('button', { name: 'Menu' });

    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Data' }));
    await user.keyboard('{ArrowDown}{Enter}');

    expect(toggle).toHaveFocus();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('a failing Download APK is only logged', async () => {
    signedInAs(api, 'admin');
    const log = jest.spyOn(console, 'error').mockImplementation(() => {});
    loadRemotesWithApkDownload(() => Promise.reject(new Error('404')));
    const user = userEvent.setup();
    renderShell('/Dashboard');

    await user.click(await screen.findByRole('button', { name: 'Data' }));
    await user.click(screen.getByRole('menuitem', { name: 'Download APK' }));

    await waitFor(() => expect(log).toHaveBeenCalledWith('Download APK failed', expect.any(Error)));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    log.mockRestore();
  });
});

// A page the role may not open is not in its composition: its path is like any unknown one.
describe('role gating by URL', () => {
  test.each(['/Upload', '/WhiteLabel', '/AuditLog'])(
    'an executive typing %s lands on the Dashboard; the remote is never loaded',
    async (path) => {
      signedInAs(api, 'executive');
      renderShell(path);

      await expectAt('/Dashboard', 'REPLACE');
      expect(mockedLoadRemote).not.toHaveBeenCalledWith(
        expect.stringMatching(/^(data\/Upload|whitelabel\/WhiteLabel|audit\/AuditLog)$/),
      );
    },
  );

  test.each([
    ['/Upload', 'data/Upload'],
    ['/WhiteLabel', 'whitelabel/WhiteLabel'],
    ['/AuditLog', 'audit/AuditLog'],
  ])('an admin opening %s sees %s', async (path, id) => {
    signedInAs(api, 'admin');
    renderShell(path);
    expect(await screen.findByRole('heading', { name: `${id} page` })).toBeInTheDocument();
    expect(location()).toHaveTextContent(path);
  });

  test.each([
    ['/createuser', 'users/CreateUser'],
    ['/Deactivateuser', 'users/DeactivateUsers'],
    ['/Download', 'data/Download'],
    ['/ListDevices', 'devices/ListDevices'],
  ])('every role may open %s (%s)', async (path, id) => {
    signedInAs(api, 'incharge');
    renderShell(path);
    expect(await screen.findByRole('heading', { name: `${id} page` })).toBeInTheDocument();
  });
});

describe('logout', () => {
  test('the logout icon posts user/logout/, clears the session and goes to /login', async () => {
    signedInAs(api, 'admin').on('POST user/logout/', [200, {}]);
    const user = userEvent.setup();
    renderShell('/Dashboard');

    await user.click(await screen.findByRole('button', { name: 'Logout' }));

    await expectAt('/login', 'REPLACE');
    expect(api.requestsTo('POST user/logout/')).toHaveLength(1);
    // The Logout button is gone with the layout: the keyboard starts again at the username.
    expect(screen.getByLabelText('Username')).toHaveFocus();
    expect(document.title).toBe('Login · Veritas');
  });

  test('signing out clears what the user loaded, so the next user of the tab never sees it', async () => {
    signedInAs(api, 'admin').on('POST user/logout/', [200, {}]);
    const user = userEvent.setup();
    renderShell('/Dashboard');
    await screen.findByRole('button', { name: 'Logout' });
    queryClient.setQueryData(['loaded by admin'], 'their rows');

    await user.click(screen.getByRole('button', { name: 'Logout' }));

    await expectAt('/login', 'REPLACE');
    expect(queryClient.getQueryData(['loaded by admin'])).toBeUndefined();
  });

  test('a failing logout is only logged and still leaves for /login', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => {});
    signedInAs(api, 'admin').on('POST user/logout/', [500, {}]);
    const user = userEvent.setup();
    renderShell('/Dashboard');

    await user.click(await screen.findByRole('button', { name: 'Logout' }));

    await expectAt('/login');
    expect(log).toHaveBeenCalledWith('Logout failed', expect.anything());
    log.mockRestore();
  });

  test('an expired session found by a call (refresh fails) leads to /login', async () => {
    let sessionValid = true;
    api
      .on('GET user/is_LoggedIn/', () => (sessionValid ? [200, {}] : [401, {}]))
      .on('GET user/get_role/', [200, { user: 'asha', role: 'admin', hub_code: null }])
      .on('GET api/get_status/', () => (sessionValid ? [200, []] : [401, {}]))
      .on('POST user/refresh/', [401, {}]);
    const { http } = await import('@veritas/shared');
    renderShell('/Dashboard');
    await screen.findByRole('heading', { name: 'dashboard/Dashboard page' });

    sessionValid = false;
    await act(() => http.get('api/get_status/').catch(() => undefined));

    await expectAt('/login', 'REPLACE');
  });
});

test("each page names the browser's tab by the title its remote declares (docs/screens.md#navigation)", async () => {
  signedInAs(api, 'admin');
  const user = userEvent.setup();
  renderShell('/Dashboard');
  await screen.findByRole('heading', { name: 'dashboard/Dashboard page' });
  expect(document.title).toBe('Dashboard · Veritas');
  await user.click(screen.getByRole('button', { name: 'Data' }));
  await user.click(screen.getByRole('menuitem', { name: 'Stats' }));
  await screen.findByRole('heading', { name: 'devices/ListDevices page' });
  expect(document.title).toBe('Stats · Veritas');
});
