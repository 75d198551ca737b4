import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ALL_REMOTES, mockedLoadRemote, renderShell, serveRemoteList, signedInAs, startApi } from '../test/harness';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn(), registerRemotes: jest.fn() }));

// /remotes.json is read once per session (and again on Retry), so this is one story in order.
test('an unreachable /remotes.json or a remote it does not list shows the error card; Retry reads the list again', async () => {
  const api = signedInAs(startApi(), 'admin');
  const log = jest.spyOn(console, 'error').mockImplementation(() => {});
  mockedLoadRemote.mockImplementation(async (id: string) => ({ default: () => <h1>{id} page</h1> }));
  const user = userEvent.setup();

  serveRemoteList({}, 503);
  const { unmount } = renderShell('/Dashboard');
  expect(await screen.findByRole('alert')).toHaveTextContent('Dashboard could not be loaded');

  const { data: _notDeployedYet, ...withoutData } = ALL_REMOTES;
  serveRemoteList(withoutData);
  await user.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByRole('heading', { name: 'dashboard/Dashboard page' })).toBeInTheDocument();
  unmount();

  renderShell('/Download');
  expect(await screen.findByRole('alert')).toHaveTextContent('Download could not be loaded');
  expect(mockedLoadRemote).not.toHaveBeenCalledWith('data/Download');

  serveRemoteList(ALL_REMOTES);
  await user.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByRole('heading', { name: 'data/Download page' })).toBeInTheDocument();

  api.restore();
  log.mockRestore();
});
