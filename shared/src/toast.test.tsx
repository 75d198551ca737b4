import { act, render, screen } from '@testing-library/react';
import { http } from './http';
import { mockApi } from './testing/mock-api';
import { TOAST_DURATION_MS, VeritasToaster, notifyError, toast } from './toast';

afterEach(() => act(() => toast.remove()));

test('toasts last 5000 ms', () => {
  expect(TOAST_DURATION_MS).toBe(5000);
});

test("notifyError shows the server's message from the error body", async () => {
  const api = mockApi().on('POST user/create/', [400, { detail: 'Username already exists' }]);
  const error = await http.post('user/create/', {}).catch((e: unknown) => e);
  api.restore();
  render(<VeritasToaster />);

  act(() => {
    expect(notifyError(error, 'Failed to create user.')).toBe('Username already exists');
  });

  expect(await screen.findByText('Username already exists')).toBeInTheDocument();
});

test('notifyError falls back to the given text when the server said nothing usable', async () => {
  render(<VeritasToaster />);
  act(() => {
    notifyError(new Error('Network Error'), 'Failed to load users');
  });
  expect(await screen.findByText('Failed to load users')).toBeInTheDocument();
});

test('a toast appears inside one polite live region that was in the page before it, its own region off', async () => {
  const { container } = render(<VeritasToaster />);
  // Screen readers announce what is added to a region already there, not a region added with its text.
  const region = container.querySelector('[aria-live="polite"]');
  expect(region).not.toBeNull();
  expect(region).toHaveTextContent('');

  act(() => {
    toast.error('Failed to load users');
  });

  const message = await screen.findByText('Failed to load users');
  expect(region).toContainElement(message);
  expect(message.closest('[aria-live]')).toHaveAttribute('aria-live', 'off');
  expect(message.parentElement?.closest('[aria-live="polite"]')).toBe(region);
});
