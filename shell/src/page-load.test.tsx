// A page load of a remote's page (docs/architecture.md#first-rows): the sign-in check and the
// page's code start before the first render, from the composition the document carries, and the
// page shows without its loading state.
import { screen, waitFor } from '@testing-library/react';
import type { MockApi } from '@veritas/shared/testing';
import {
  compositionFor,
  mockedLoadRemote,
  renderShell,
  serveComposition,
  serveRemotePages,
  signedInAs,
  signedOut,
  startApi,
  textsShownDuring,
} from '../test/harness';
import { setComposition } from '@veritas/shared';
import { takeFirstCall } from '@veritas/shared/first-calls';
import { startSignedInPageLoad } from './app';
import { startSessionCheck } from './session-check';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn(), registerRemotes: jest.fn() }));

const DEVICES_PATH = 'api/devices/';

let api: MockApi;

// The page document as the server sends it, read when the signed-in routes load.
beforeAll(() => {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = 'veritas-composition';
  element.textContent = JSON.stringify(compositionFor('admin', 'asha'));
  document.head.append(element);
});

afterEach(() => api.restore());

test("a page load loads the page's code while the sign-in is checked, and shows the page without a loading state", async () => {
  api = signedInAs(startApi(), 'admin');
  const remotesJson = serveComposition();
  serveRemotePages();

  await startSignedInPageLoad('/listdevices/', '');
  await waitFor(() => expect(mockedLoadRemote).toHaveBeenCalledWith('devices/ListDevices'));

  const shown = await textsShownDuring(async () => {
    renderShell('/ListDevices');
    await screen.findByRole('heading', { name: 'devices/ListDevices page' });
  });
  expect(shown.some((text) => text.includes('Loading Stats…'))).toBe(false);
  // The layout took the check the page load started instead of asking again.
  expect(api.requestsTo('GET user/is_LoggedIn/')).toHaveLength(1);
  expect(mockedLoadRemote).toHaveBeenCalledTimes(1);
  expect(remotesJson).not.toHaveBeenCalled();
});

test("a session found over by the page load's check leads to /login through the router, replacing the entry", async () => {
  api = signedOut(startApi());
  serveComposition();
  // jsdom reports a page navigation (window.location.replace) as not implemented.
  const log = jest.spyOn(console, 'error').mockImplementation(() => {});

  // The check fails before the layout mounts.
  startSessionCheck(true);
  await waitFor(() => expect(api.requestsTo('POST user/refresh/')).toHaveLength(1));
  await new Promise((resolve) => setTimeout(resolve, 10));
  renderShell('/Dashboard');

  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
  expect(screen.getByTestId('location')).toHaveAttribute('data-navigation', 'REPLACE');
  expect(log.mock.calls.flat().join(' ')).not.toMatch(/navigation/);
  log.mockRestore();
});

test("a page load composed for the signed-in user starts the page's first calls with its code, and neither the sign-in check nor the route starts them again", async () => {
  // The sign-in check answers only once the first calls have: the layout mounts while it is on its way.
  let answerCheck: () => void = () => {};
  const checked = new Promise<void>((resolve) => (answerCheck = resolve));
  api = signedInAs(startApi(), 'admin')
    .on('GET user/is_LoggedIn/', async () => {
      await checked;
      return [200, {}];
    })
    .on('GET user/get_role/', [200, { user: 'asha', role: 'admin', hub_code: 'BLR01', features: ['device-pages'] }])
    .on(`GET ${DEVICES_PATH}`, [200, { records: [], next: null }]);
  serveComposition();
  serveRemotePages();
  setComposition(compositionFor('admin', 'asha', { features: ['device-pages'] }));

  await startSignedInPageLoad('/ListDevices', '?status=Rejected');
  // Asked before the sign-in check answered, and so was the role.
  expect(api.requestsTo(`GET ${DEVICES_PATH}`)).toHaveLength(1);
  expect(api.requestsTo('GET user/get_role/')).toHaveLength(1);
  renderShell('/ListDevices?status=Rejected');
  await screen.findByText('Checking sign-in…');
  // Answered while the check is on its way; a second start would ask again.
  await new Promise((resolve) => setTimeout(resolve, 20));
  answerCheck();

  await screen.findByRole('heading', { name: 'devices/ListDevices page' });
  expect(api.requestsTo(`GET ${DEVICES_PATH}`)).toHaveLength(1);
  // Its answer is there for the page to take.
  expect(takeFirstCall(DEVICES_PATH, { status: 'Rejected', limit: '100' })).toBeDefined();
});
