import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MockApi } from '@veritas/shared/testing';
import { renderShell, serveComposition, serveRemotePages, signedInAs, startApi } from '../test/harness';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn(), registerRemotes: jest.fn() }));

let api: MockApi;

beforeEach(() => {
  api = startApi();
  serveComposition();
  serveRemotePages();
  signedInAs(api, 'executive', 'asha_blr');
});

afterEach(() => api.restore());

async function openDialog() {
  const user = userEvent.setup();
  renderShell('/Download');
  const button = await screen.findByRole('button', { name: 'Change password' });
  await user.click(button);
  const dialog = await screen.findByRole('dialog', { name: 'Change password' });
  return { user, button, dialog };
}

async function fill(
  user: ReturnType<typeof userEvent.setup>,
  dialog: HTMLElement,
  current: string,
  password: string,
  confirm = password,
) {
  await user.type(within(dialog).getByLabelText('Current password'), current);
  await user.type(within(dialog).getByLabelText('New password'), password);
  await user.type(within(dialog).getByLabelText('Confirm new password'), confirm);
  await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
}

describe('Change password in the top bar', () => {
  test('is a button in the top bar, reached with Tab like the logout icon', async () => {
    const user = userEvent.setup();
    renderShell('/Download');
    const button = await screen.findByRole('button', { name: 'Change password' });
    expect(screen.getByRole('banner')).toContainElement(button);
    screen.getByRole('button', { name: 'Logout' }).focus();
    await user.tab({ shift: true });
    expect(button).toHaveFocus();
  });

  test('opens a dialog asking for the current password and the new one twice, with the rule', async () => {
    const { dialog } = await openDialog();
    expect(within(dialog).getByLabelText('Current password')).toHaveFocus();
    expect(within(dialog).getByLabelText('New password')).toHaveAccessibleDescription(
      'At least 8 characters, not the username and not a commonly used password.',
    );
    expect(within(dialog).getByLabelText('Confirm new password')).toBeInTheDocument();
  });

  test("the signed-in user's name is refused as the new password, before anything is sent", async () => {
    const { user, dialog } = await openDialog();
    await fill(user, dialog, 'Old-Pass-1', 'Asha_Blr');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Password must not be the username');
    expect(api.requestsTo('POST user/change_password/')).toHaveLength(0);
  });

  test("sends {current_password, new_password}; the server's message replaces the form; Done gives focus back to the button", async () => {
    api.on('POST user/change_password/', [
      200,
      { message: 'Your password has been changed. Your other sessions have been signed out.' },
    ]);
    const { user, button, dialog } = await openDialog();
    await fill(user, dialog, 'Old-Pass-1', 'Fresh-Pass-42');
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'Your password has been changed. Your other sessions have been signed out.',
    );
    expect(api.requestsTo('POST user/change_password/')[0]!.body).toEqual({
      current_password: 'Old-Pass-1',
      new_password: 'Fresh-Pass-42',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Done', description: /has been changed/ }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  test("a wrong current password shows the server's message and leaves the form usable", async () => {
    api.on('POST user/change_password/', [
      400,
      {
        field: 'current_password',
        error: 'The current password is not correct.',
        detail: 'The current password is not correct.',
      },
    ]);
    const { user, dialog } = await openDialog();
    await fill(user, dialog, 'Wrong-Pass-1', 'Fresh-Pass-42');
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent('The current password is not correct.'),
    );
    expect(within(dialog).getByLabelText('Current password')).toHaveFocus();
    expect(within(dialog).getByRole('button', { name: 'Change password' })).not.toHaveAttribute('aria-disabled');
  });
});
