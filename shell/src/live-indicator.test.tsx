// The live indicator of the top bar and the tab's event stream started with the signed-in layout
// (docs/screens.md#live-indicator, docs/architecture.md#live-events).
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeEventSource, installFakeEventSource, type MockApi } from '@veritas/shared/testing';
import { renderShell, serveComposition, serveRemotePages, startApi } from '../test/harness';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn(), registerRemotes: jest.fn() }));

let api: MockApi;
let removeFake: () => void;

beforeEach(() => {
  api = startApi();
  serveComposition();
  serveRemotePages();
  removeFake = installFakeEventSource();
});

afterEach(() => {
  removeFake();
  api.restore();
});

function signedInWith(features: string[]) {
  api
    .on('GET user/is_LoggedIn/', [200, {}])
    .on('GET user/get_role/', [200, { user: 'asha', role: 'admin', hub_code: null, features }])
    .on('POST user/logout/', [200, {}]);
}

const indicator = () => screen.getByTestId('live-indicator');

test('a server without live-events (spec-only): no EventSource is constructed and no indicator shows', async () => {
  signedInWith([]);
  renderShell('/Dashboard');
  expect(await screen.findByRole('heading', { name: 'dashboard/Dashboard page' })).toBeInTheDocument();
  expect(FakeEventSource.instances).toHaveLength(0);
  expect(screen.queryByTestId('live-indicator')).not.toBeInTheDocument();
});

test('with live-events the layout opens the stream; the indicator says Live, Reconnecting… and Paused, as a named status', async () => {
  signedInWith(['device-pages', 'live-events']);
  renderShell('/Dashboard');
  await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
  expect(FakeEventSource.latest!.url).toBe('/veritas/api/events/');

  act(() => FakeEventSource.latest!.open());
  expect(indicator()).toHaveAttribute('data-state', 'connected');
  expect(indicator()).toHaveTextContent(/^Live$/);
  expect(screen.getByRole('status', { name: 'Live updates: Live' })).toBe(indicator());
  expect(indicator()).toHaveAttribute('aria-live', 'polite');
  expect(indicator()).not.toHaveAttribute('tabindex');

  act(() => FakeEventSource.latest!.fail());
  expect(indicator()).toHaveAttribute('data-state', 'reconnecting');
  expect(indicator()).toHaveTextContent('Reconnecting…');

  act(() => {
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    window.dispatchEvent(new Event('offline'));
  });
  expect(indicator()).toHaveAttribute('data-state', 'paused');
  expect(indicator()).toHaveTextContent('Paused');
  act(() => {
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    window.dispatchEvent(new Event('online'));
  });
  expect(indicator()).toHaveAttribute('data-state', 'reconnecting');
  act(() => FakeEventSource.latest!.open());
  expect(indicator()).toHaveAttribute('data-state', 'connected');
});

test('logging out closes the stream and removes the indicator', async () => {
  signedInWith(['live-events']);
  renderShell('/Dashboard');
  await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
  act(() => FakeEventSource.latest!.open());
  await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
  expect(FakeEventSource.latest!.readyState).toBe(FakeEventSource.CLOSED);
  expect(screen.queryByTestId('live-indicator')).not.toBeInTheDocument();
});
