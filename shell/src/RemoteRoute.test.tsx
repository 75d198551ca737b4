import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MockApi } from '@veritas/shared/testing';
import {
  ALL_REMOTES,
  mockedLoadRemote,
  mockedRegisterRemotes,
  renderShell,
  serveRemoteList,
  signedInAs,
  startApi,
} from '../test/harness';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn(), registerRemotes: jest.fn() }));

// Each test uses its own remote: the shell keeps loaded remotes for the whole session.
let api: MockApi;
let log: jest.SpyInstance;

beforeEach(() => {
  api = signedInAs(startApi(), 'admin');
  log = jest.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  api.restore();
  log.mockRestore();
});

const page = (id: string) => ({ default: () => <h1>{id} page</h1> });

test('a loading state shows while the remote comes, then the page', async () => {
  serveRemoteList();
  let arrive!: (module: unknown) => void;
  mockedLoadRemote.mockImplementation((id: string) =>
    id === 'devices/ListDevices' ? new Promise((resolve) => (arrive = resolve)) : Promise.resolve(page(id)),
  );
  renderShell('/ListDevices');

  expect(await screen.findByText('Loading Stats…')).toBeInTheDocument();
  await waitFor(() => expect(mockedLoadRemote).toHaveBeenCalledWith('devices/ListDevices'));
  arrive(page('devices/ListDevices'));

  expect(await screen.findByRole('heading', { name: 'devices/ListDevices page' })).toBeInTheDocument();
  expect(mockedRegisterRemotes).toHaveBeenCalledWith([{ name: 'devices', entry: ALL_REMOTES.devices }], { force: false });
});

test('a remote that is down shows an error card with Retry, while menus, other routes and logout keep working', async () => {
  serveRemoteList();
  mockedLoadRemote.mockImplementation(async (id: string) => {
    if (id.startsWith('users/')) throw new Error('Failed to fetch mf-manifest.json');
    return page(id);
  });
  const user = userEvent.setup();
  renderShell('/createuser');

  const card = await screen.findByRole('alert');
  expect(card).toHaveTextContent('Create User could not be loaded');
  expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();

  await user.click(screen.getByRole('button', { name: 'Data' }));
  await user.click(screen.getByRole('menuitem', { name: 'Upload' }));
  expect(await screen.findByRole('heading', { name: 'data/Upload page' })).toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Logout' })).toBeEnabled();
});

test('Retry re-reads /remotes.json, re-registers the remote with force (no cached failure) and loads again', async () => {
  const remoteList = serveRemoteList();
  let down = true;
  mockedLoadRemote.mockImplementation(async (id: string) => {
    if (id === 'whitelabel/WhiteLabel' && down) throw new Error('ScriptExternalLoadError');
    return page(id);
  });
  const user = userEvent.setup();
  renderShell('/WhiteLabel');
  await screen.findByText('White Label could not be loaded');
  const listReads = remoteList.mock.calls.length;

  down = false;
  await user.click(screen.getByRole('button', { name: 'Retry' }));

  expect(await screen.findByRole('heading', { name: 'whitelabel/WhiteLabel page' })).toBeInTheDocument();
  expect(remoteList.mock.calls.length).toBe(listReads + 1);
  expect(mockedRegisterRemotes).toHaveBeenLastCalledWith([{ name: 'whitelabel', entry: ALL_REMOTES.whitelabel }], { force: true });
  expect(mockedLoadRemote.mock.calls.filter(([id]) => id === 'whitelabel/WhiteLabel')).toHaveLength(2);
});
