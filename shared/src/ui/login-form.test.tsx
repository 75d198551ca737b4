import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { takeStartMark } from '../live/start-mark';
import { useSession } from '../session';
import { mockApi, type MockApi } from '../testing/mock-api';
import { LOGIN_MESSAGE_MS, LoginForm } from './login-form';

let api: MockApi;

beforeEach(() => {
  jest.useFakeTimers();
  window.history.pushState({}, '', '/login');
  useSession.getState().clearSession();
  api = mockApi().on('GET user/get_role/', [200, { user: 'asha', role: 'admin', hub_code: 'BLR01' }]);
});

afterEach(() => {
  api.restore();
  jest.useRealTimers();
});

function renderForm() {
  const onLoggedIn = jest.fn();
  const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
  render(<LoginForm onLoggedIn={onLoggedIn} />);
  return { user, onLoggedIn };
}

async function signIn(user: ReturnType<typeof userEvent.setup>, username: string, password: string) {
  if (username) await user.type(screen.getByLabelText('Username'), username);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

const errorLine = () => screen.getByRole('alert');

/** Waits for the message under the form (the wait advances fake time by at most 50 ms past its appearance). */
async function expectMessage(text: string) {
  await waitFor(() => expect(errorLine()).toHaveTextContent(text));
}

async function expectClearedAfter3s() {
  act(() => jest.advanceTimersByTime(LOGIN_MESSAGE_MS - 100));
  expect(errorLine()).not.toBeEmptyDOMElement();
  act(() => jest.advanceTimersByTime(100));
  expect(errorLine()).toBeEmptyDOMElement();
}

test('the form has Username and Password fields and a Login button', () => {
  renderForm();
  expect(screen.getByLabelText('Username')).toBeInTheDocument();
  expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
  expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
});

test('the password can be shown and hidden again', async () => {
  const { user } = renderForm();
  await user.click(screen.getByRole('button', { name: 'Show password' }));
  expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'text');
  await user.click(screen.getByRole('button', { name: 'Hide password' }));
  expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
});

test.each([
  ['empty username', '', 'secret'],
  ['empty password', 'asha', ''],
  ['both empty', '', ''],
])('%s: "Username and password are required" for 3 s and nothing is sent', async (_case, username, password) => {
  const { user, onLoggedIn } = renderForm();
  await signIn(user, username, password);

  await expectMessage('Username and password are required');
  expect(api.requests).toHaveLength(0);
  expect(onLoggedIn).not.toHaveBeenCalled();
  await expectClearedAfter3s();
});

test('while the sign-in runs, Login keeps the focus, is marked unavailable and takes no second press (docs/screens.md#buttons)', async () => {
  jest.useRealTimers();
  let answer: (reply: [number, unknown]) => void = () => {};
  api.on('POST user/login/', () => new Promise((resolve) => (answer = resolve)));
  const user = userEvent.setup();
  render(<LoginForm onLoggedIn={jest.fn()} />);
  await signIn(user, 'asha', 'wrong');
  const button = screen.getByRole('button', { name: 'Login' });
  expect(button).toHaveFocus();
  expect(button).toHaveAttribute('aria-disabled', 'true');
  await user.click(button);
  await user.keyboard('{Enter}');
  expect(api.requestsTo('POST user/login/')).toHaveLength(1);
  answer([401, {}]);
  await expectMessage('Invalid username or password');
  expect(button).not.toHaveAttribute('aria-disabled');
  expect(button).toHaveFocus();
});

test('a successful login posts user/login/, loads the role into the session and calls onLoggedIn', async () => {
  jest.useRealTimers(); // no message timing here
  api.on('POST user/login/', [200, { is_webview: true, role: 'admin' }]);
  const onLoggedIn = jest.fn();
  const user = userEvent.setup();
  render(<LoginForm onLoggedIn={onLoggedIn} />);

  await signIn(user, 'asha', 'secret');

  await waitFor(() => expect(onLoggedIn).toHaveBeenCalledTimes(1));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Login' })).not.toHaveAttribute('aria-disabled'));
  expect(api.requestsTo('POST user/login/')[0]?.body).toEqual({ username: 'asha', password: 'secret' });
  expect(useSession.getState()).toMatchObject({ user: 'asha', role: 'admin', hubCode: 'BLR01', isAuthenticated: true });
  expect(errorLine()).toBeEmptyDOMElement();
});

test("a sign-in's answer names where the session's event stream resumes (docs/events.md#the-first-stream); one without names none", async () => {
  jest.useRealTimers();
  for (const [headers, mark] of [
    [{ 'veritas-last-event-id': '77' }, '77'],
    [{}, null],
  ] as const) {
    api.on('POST user/login/', [200, { is_webview: true, role: 'admin' }, headers]);
    const onLoggedIn = jest.fn();
    const user = userEvent.setup();
    const { unmount } = render(<LoginForm onLoggedIn={onLoggedIn} />);
    await signIn(user, 'asha', 'secret');
    await waitFor(() => expect(onLoggedIn).toHaveBeenCalledTimes(1));
    expect(takeStartMark()).toBe(mark);
    // Taken once.
    expect(takeStartMark()).toBeNull();
    unmount();
  }
});

test('is_webview false: "{role}, are not allowed to login from web browser" for 3 s, no session', async () => {
  api.on('POST user/login/', [200, { is_webview: false, role: 'operators' }]);
  const { user, onLoggedIn } = renderForm();

  await signIn(user, 'field1', 'secret');

  await expectMessage('operators, are not allowed to login from web browser');
  expect(onLoggedIn).not.toHaveBeenCalled();
  expect(api.requestsTo('GET user/get_role/')).toHaveLength(0);
  expect(useSession.getState().isAuthenticated).toBe(false);
  await expectClearedAfter3s();
});

test('401: "Invalid username or password" for 3 s', async () => {
  api.on('POST user/login/', [401, { detail: 'bad credentials' }]);
  const { user, onLoggedIn } = renderForm();

  await signIn(user, 'asha', 'wrong');

  await expectMessage('Invalid username or password');
  expect(onLoggedIn).not.toHaveBeenCalled();
  expect(api.requestsTo('POST user/refresh/')).toHaveLength(0);
  await expectClearedAfter3s();
});

test("403: the server's res message for 3 s", async () => {
  api.on('POST user/login/', [403, { res: 'Account is deactivated', detail: 'Account is deactivated' }]);
  const { user } = renderForm();

  await signIn(user, 'asha', 'secret');

  await expectMessage('Account is deactivated');
  await expectClearedAfter3s();
});

test('403 without res: "Access forbidden. You do not have permission to access this resource."', async () => {
  api.on('POST user/login/', [403, {}]);
  const { user } = renderForm();

  await signIn(user, 'asha', 'secret');

  await expectMessage('Access forbidden. You do not have permission to access this resource.');
  await expectClearedAfter3s();
});

test.each([
  ['a 500', [500, {}]],
  ['a 429', [429, { detail: 'Too many attempts' }]],
] as const)(
  'other failure (%s): "An unexpected error occurred. Please try again later." for 3 s',
  async (_case, reply) => {
    api.on('POST user/login/', [...reply]);
    const { user } = renderForm();

    await signIn(user, 'asha', 'secret');

    await expectMessage('An unexpected error occurred. Please try again later.');
    await expectClearedAfter3s();
  },
);

test('the same message shown again stays a full 3 s from the second attempt', async () => {
  api.on('POST user/login/', [401, {}]);
  const { user } = renderForm();
  await signIn(user, 'asha', 'wrong');
  await expectMessage('Invalid username or password');
  act(() => jest.advanceTimersByTime(2000));

  await user.click(screen.getByRole('button', { name: 'Login' }));
  await waitFor(() => expect(api.requestsTo('POST user/login/')).toHaveLength(2));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Login' })).not.toHaveAttribute('aria-disabled'));

  act(() => jest.advanceTimersByTime(1500)); // 3.5 s after the first message
  expect(errorLine()).toHaveTextContent('Invalid username or password');
  act(() => jest.advanceTimersByTime(1400));
  expect(errorLine()).not.toBeEmptyDOMElement();
  act(() => jest.advanceTimersByTime(100));
  expect(errorLine()).toBeEmptyDOMElement();
});
