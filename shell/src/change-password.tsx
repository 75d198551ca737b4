// The top bar's "Change password": the signed-in user's own password, through the shared dialog.
// The server ends the user's other sessions and app tokens; this one stays signed in.
import { http, PasswordDialog, useSession, type NewPasswords } from '@veritas/shared';
import { useState } from 'react';
import { TopBarIcon } from './top-bar-icon';

const MESSAGES = {
  changed: 'Your password has been changed.',
  failed: 'Failed to change password',
} as const;

export function ChangePassword() {
  const user = useSession((state) => state.user);
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  async function change({ current, password }: NewPasswords) {
    const { data } = await http.post<{ message?: string }>('user/change_password/', {
      current_password: current,
      new_password: password,
    });
    setDone(typeof data?.message === 'string' && data.message ? data.message : MESSAGES.changed);
  }

  function close() {
    setOpen(false);
    setDone(null);
  }

  return (
    <>
      <button
        type="button"
        className="vx-btn vx-btn-icon shell-password"
        title="Change password"
        onClick={() => setOpen(true)}
      >
        <TopBarIcon>
          <circle cx="7.5" cy="15.5" r="4.5" />
          <path d="M10.7 12.3 21 2M16 7l3 3M14 9l2 2" />
        </TopBarIcon>
        <span className="shell-password-label">Change password</span>
      </button>
      {open && (
        <PasswordDialog
          title="Change password"
          username={user ?? ''}
          askCurrent
          submitLabel="Change password"
          failedText={MESSAGES.failed}
          onSubmit={change}
          done={done}
          onClose={close}
        />
      )}
    </>
  );
}
