// The dialog in which a password is chosen: one's own from the top bar, another user's from
// Deactivate Users. Loaded on first use, with the password rule and its list of common passwords,
// so the login page does not carry them.
import { lazy, Suspense } from 'react';

const PasswordDialogContent = lazy(() => import('./password-dialog-content'));

export interface NewPasswords {
  /** The current password; empty unless `askCurrent`. */
  current: string;
  password: string;
}

export interface PasswordDialogProps {
  title: string;
  /** Whose password is chosen: the rule refuses the username as the password. */
  username: string;
  /** Asks for the current password too (changing one's own). */
  askCurrent?: boolean;
  submitLabel: string;
  /**
   * Sends the passwords once they pass the rule. A rejection shows the server's message (else
   * `failedText`) and leaves the form as it was, to correct and send again.
   */
  onSubmit(passwords: NewPasswords): Promise<void>;
  failedText: string;
  /** When set, the outcome shown in place of the form, with a Done button that closes the dialog. */
  done?: string | null;
  onClose(): void;
}

/** Render it while the dialog is open; unmounting it closes the dialog and gives focus back. */
export function PasswordDialog(props: PasswordDialogProps) {
  return (
    <Suspense fallback={null}>
      <PasswordDialogContent {...props} />
    </Suspense>
  );
}
