// A remote page when /remotes.json does not help (docs/architecture.md#loading-error-card-and-retry):
// its remote is not located, or the composition cannot be read again; the page shows the error
// card, the rest of the console keeps working, and Retry reads /remotes.json again.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MockApi } from '@veritas/shared/testing';
import {
  COMPOSITION_REMOTES,
  forSignedInUser,
  mockedLoadRemote,
  renderShell,
  serveComposition,
  serveRemotePages,
  signedInAs,
  startApi,
} from '../test/harness';
import { markCompositionStale } from './composition';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn(), registerRemotes: jest.fn() }));

let api: MockApi;
let log: jest.SpyInstance;

beforeEach(() => {
  api = signedInAs(startApi(), 'admin');
  log = jest.spyOn(console, 'error').mockImplementation(() => {});
  serveRemotePages();
});

afterEach(() => {
  api.restore();
  log.mockRestore();
});

test('a page whose remote the composition does not locate shows the error card; Retry reads /remotes.json again', async () => {
  const { data: _notDeployedYet, ...withoutData } = COMPOSITION_REMOTES;
  serveComposition(() => ({ ...forSignedInUser(), remotes: withoutData }));
  const user = userEvent.setup();
  renderShell('/Download');

  expect(await screen.findByRole('alert')).toHaveTextContent('Download could not be loaded');
  expect(mockedLoadRemote).not.toHaveBeenCalledWith('data/Download');

  const remotesJson = serveComposition();
  await user.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByRole('heading', { name: 'data/Download page' })).toBeInTheDocument();
  expect(remotesJson).toHaveBeenCalledTimes(1);
});

test('a stale composition that cannot be read again: the next page shows the error card, the menus keep working, Retry reads it again', async () => {
  serveComposition();
  const user = userEvent.setup();
  renderShell('/Dashboard');
  await screen.findByRole('heading', { name: 'dashboard/Dashboard page' });

  markCompositionStale();
  serveComposition(undefined, 503);
  await user.click(screen.getByRole('button', { name: 'User Management' }));
  await user.click(screen.getByRole('menuitem', { name: 'Create User' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Create User could not be loaded');
  expect(screen.getByRole('button', { name: 'Data' })).toBeEnabled();

  serveComposition();
  await user.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByRole('heading', { name: 'users/CreateUser page' })).toBeInTheDocument();
});
