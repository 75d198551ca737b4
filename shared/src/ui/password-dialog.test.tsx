import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { http } from '../http';
import { mockApi, type MockApi } from '../testing';
import { PasswordDialog, type NewPasswords } from './password-dialog';

let api: MockApi;
beforeEach(() => {
  api = mockApi();
});
afterEach(() => api.restore());

/** The dialog as a caller uses it: sends to `path`, shows `done` when told to. */
function Harness({ askCurrent = true, path = 'user/change_password/', showDone = false }) {
  const [open, setOpen] = useState(true);
  const [done, setDone] = useState<string | null>(null);
  const send = async ({ current, password }: NewPasswords) => {
    const { data } = await http.post<{ message: string }>(
      path,
      askCurrent ? { current_password: current, new_password: password } : { user_id: 7, new_password: password },
    );
    if (showDone) setDone(data.message);
  };
  return open ? (
    <PasswordDialog
      title="Change password"
      username="asha_blr"
      askCurrent={askCurrent}
      submitLabel="Change password"
      failedText="Failed to change password"
      onSubmit={send}
      done={done}
      onClose={() => setOpen(false)}
    />
  ) : (
    <p>closed</p>
  );
}

const field = (name: string) => screen.getByLabelText(name, { selector: 'input' });
const submit = () => userEvent.click(screen.getByRole('button', { name: 'Change password' }));
const alertText = () => screen.getByRole('alert').textContent;

async function fill(values: { current?: string; password?: string; confirm?: string }) {
  if (values.current !== undefined) await userEvent.type(field('Current password'), values.current);
  if (values.password !== undefined) await userEvent.type(field('New password'), values.password);
  if (values.confirm !== undefined) await userEvent.type(field('Confirm new password'), values.confirm);
}

describe('PasswordDialog', () => {
  test('a modal dialog with labelled password fields, their autocomplete purposes and the rule; focus starts in the first field', async () => {
    render(<Harness />);
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(field('Current password')).toHaveAttribute('autocomplete', 'current-password');
    expect(field('New password')).toHaveAttribute('autocomplete', 'new-password');
    expect(field('Confirm new password')).toHaveAttribute('autocomplete', 'new-password');
    for (const name of ['Current password', 'New password', 'Confirm new password'])
      expect(field(name)).toHaveAttribute('type', 'password');
    expect(field('New password')).toHaveAccessibleDescription(
      'At least 8 characters, not the username and not a commonly used password.',
    );
    expect(field('Current password')).toHaveFocus();
  });

  test('"Show passwords" shows and hides every field', async () => {
    render(<Harness />);
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Show passwords' }));
    for (const name of ['Current password', 'New password', 'Confirm new password'])
      expect(field(name)).toHaveAttribute('type', 'text');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Show passwords' }));
    expect(field('New password')).toHaveAttribute('type', 'password');
  });

  test.each([
    ['the current password missing', {}, 'Enter your current password', 'Current password'],
    ['the new password missing', { current: 'Old-Pass-1' }, 'Enter a new password', 'New password'],
    [
      'a short new password',
      { current: 'Old-Pass-1', password: 'Ab#1', confirm: 'Ab#1' },
      'Password must be at least 8 characters',
      'New password',
    ],
    [
      'the username as new password',
      { current: 'Old-Pass-1', password: 'ASHA_BLR', confirm: 'ASHA_BLR' },
      'Password must not be the username',
      'New password',
    ],
    [
      'a common new password',
      { current: 'Old-Pass-1', password: 'Password123', confirm: 'Password123' },
      'This password is too common: choose one that is harder to guess',
      'New password',
    ],
    [
      'a confirmation that differs',
      { current: 'Old-Pass-1', password: 'Fresh-Pass-42', confirm: 'Fresh-Pass-24' },
      'The new passwords do not match',
      'Confirm new password',
    ],
  ])('%s: the message, the field marked and focused, nothing sent', async (_case, values, message, invalidField) => {
    render(<Harness />);
    await screen.findByRole('dialog');
    await fill(values);
    await submit();
    expect(alertText()).toBe(message);
    expect(field(invalidField)).toHaveAttribute('aria-invalid', 'true');
    expect(field(invalidField)).toHaveFocus();
    expect(api.requests).toHaveLength(0);
  });

  test('sends {current_password, new_password} once the checks pass', async () => {
    api.on('POST user/change_password/', [200, { message: 'ok' }]);
    render(<Harness />);
    await screen.findByRole('dialog');
    await fill({ current: 'Old-Pass-1', password: 'Fresh-Pass-42', confirm: 'Fresh-Pass-42' });
    await submit();
    await waitFor(() => expect(api.requestsTo('POST user/change_password/')).toHaveLength(1));
    expect(api.requestsTo('POST user/change_password/')[0]!.body).toEqual({
      current_password: 'Old-Pass-1',
      new_password: 'Fresh-Pass-42',
    });
  });

  test("a refusal shows the server's message on the field it names; the form keeps its values and can be sent again", async () => {
    api.on('POST user/change_password/', [
      400,
      { field: 'current_password', error: 'The current password is not correct.', detail: 'x' },
    ]);
    render(<Harness />);
    await screen.findByRole('dialog');
    await fill({ current: 'Wrong-Pass-1', password: 'Fresh-Pass-42', confirm: 'Fresh-Pass-42' });
    await submit();
    await waitFor(() => expect(alertText()).toBe('The current password is not correct.'));
    expect(field('Current password')).toHaveAttribute('aria-invalid', 'true');
    expect(field('Current password')).toHaveFocus();
    expect(field('New password')).toHaveValue('Fresh-Pass-42');
    expect(screen.getByRole('button', { name: 'Change password' })).not.toHaveAttribute('aria-disabled');

    api.on('POST user/change_password/', [200, { message: 'ok' }]);
    await userEvent.clear(field('Current password'));
    await userEvent.type(field('Current password'), 'Old-Pass-1');
    await submit();
    await waitFor(() => expect(api.requestsTo('POST user/change_password/')).toHaveLength(2));
  });

  test('a failure without a message of the server shows the fallback text', async () => {
    api.on('POST user/change_password/', [502, '<html>Bad gateway</html>']);
    render(<Harness />);
    await screen.findByRole('dialog');
    await fill({ current: 'Old-Pass-1', password: 'Fresh-Pass-42', confirm: 'Fresh-Pass-42' });
    await submit();
    await waitFor(() => expect(alertText()).toBe('Failed to change password'));
    expect(screen.getByRole('button', { name: 'Change password' })).not.toHaveAttribute('aria-disabled');
  });

  test('the submit button is unavailable while the request runs, keeps the focus and takes no second press (docs/screens.md#buttons)', async () => {
    let answer: (reply: [number, unknown]) => void = () => {};
    api.on('POST user/change_password/', () => new Promise((resolve) => (answer = resolve)));
    render(<Harness />);
    await screen.findByRole('dialog');
    await fill({ current: 'Old-Pass-1', password: 'Fresh-Pass-42', confirm: 'Fresh-Pass-42' });
    await submit();
    const button = screen.getByRole('button', { name: 'Change password' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveFocus();
    await userEvent.click(button);
    expect(api.requestsTo('POST user/change_password/')).toHaveLength(1);
    answer([400, { error: 'No.' }]);
    await waitFor(() => expect(button).not.toHaveAttribute('aria-disabled'));
  });

  test('done: the outcome replaces the form and its Done button takes focus and closes', async () => {
    api.on('POST user/change_password/', [200, { message: 'Your password has been changed.' }]);
    render(<Harness showDone />);
    await screen.findByRole('dialog');
    await fill({ current: 'Old-Pass-1', password: 'Fresh-Pass-42', confirm: 'Fresh-Pass-42' });
    await submit();
    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been changed.');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    const doneButton = screen.getByRole('button', { name: 'Done', description: 'Your password has been changed.' });
    expect(doneButton).toHaveFocus();
    await userEvent.click(doneButton);
    expect(screen.getByText('closed')).toBeInTheDocument();
  });

  test('without askCurrent: no current password field, focus starts in New password, Cancel closes', async () => {
    render(<Harness askCurrent={false} />);
    await screen.findByRole('dialog');
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
    expect(field('New password')).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('closed')).toBeInTheDocument();
  });
});
