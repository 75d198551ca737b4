import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSession } from '../session';
import { mockApi, type MockApi } from '../testing/mock-api';
import { StandaloneApp } from './standalone-app';

let api: MockApi;

beforeEach(() => {
  useSession.getState().clearSession();
  window.history.pushState({}, '', '/');
  api = mockApi();
});

afterEach(() => api.restore());

const page = (
  <StandaloneApp title="Devices">
    <p>Device page</p>
  </StandaloneApp>
);

test('a signed-in user sees the remote page in the frame with name and role label', async () => {
  api
    .on('GET user/is_LoggedIn/', [200, {}])
    .on('GET user/get_role/', [200, { user: 'asha', role: 'operators', hub_code: null }]);
  render(page);

  expect(await screen.findByText('Device page')).toBeInTheDocument();
  expect(screen.getByText(/asha/)).toBeInTheDocument();
  expect(screen.getByText('(Wishmaster)')).toBeInTheDocument();
});

test('without a session the login form is shown, and signing in shows the page', async () => {
  api
    .on('GET user/is_LoggedIn/', [401, {}])
    .on('POST user/refresh/', [401, {}])
    .on('POST user/login/', [200, { is_webview: true, role: 'admin' }])
    .on('GET user/get_role/', [200, { user: 'asha', role: 'admin', hub_code: null }]);
  const user = userEvent.setup();
  render(page);

  await user.type(await screen.findByLabelText('Username'), 'asha');
  await user.type(screen.getByLabelText('Password'), 'secret');
  await user.click(screen.getByRole('button', { name: 'Login' }));

  expect(await screen.findByText('Device page')).toBeInTheDocument();
});

test('Sign out posts user/logout/ and brings the login form back', async () => {
  api
    .on('GET user/is_LoggedIn/', [200, {}])
    .on('GET user/get_role/', [200, { user: 'asha', role: 'admin', hub_code: null }])
    .on('POST user/logout/', [200, {}]);
  const user = userEvent.setup();
  render(page);

  await user.click(await screen.findByRole('button', { name: 'Sign out' }));

  expect(await screen.findByLabelText('Username')).toBeInTheDocument();
  expect(screen.queryByText('Device page')).not.toBeInTheDocument();
  expect(api.requestsTo('POST user/logout/')).toHaveLength(1);
});
