import { ToastBar, Toaster, toast } from 'react-hot-toast';
import { serverMessage } from './http';
// The design tokens and vx- classes: every consumer of @veritas/shared renders the toaster, so they load once with it.
import './tokens.css';

/**
 * The toasts of the console (top right, 5 s; docs/errors.md#how-messages-are-shown). Use `toast`
 * from @veritas/shared, never from react-hot-toast directly: the shared singleton owns the one toast store this renders.
 */
export { toast };

export const TOAST_DURATION_MS = 5000;

/**
 * Rendered once, by the shell (or a remote's standalone harness). Screen readers announce what is
 * added to a live region that was already in the page; a region added with its text, as each toast
 * of react-hot-toast is, some of them never read (NVDA among them). So the toasts appear inside one
 * polite live region rendered from the start, and each toast's own region is turned off (in its bar:
 * a toast's ariaProps win over the Toaster's options), so that the wrapper is the region that speaks.
 * The toasts are drawn fixed to the viewport: the wrapper takes no room.
 */
export function VeritasToaster() {
  return (
    <div aria-live="polite">
      <Toaster position="top-right" toastOptions={{ duration: TOAST_DURATION_MS }}>
        {(shown) => <ToastBar toast={{ ...shown, ariaProps: { role: 'status', 'aria-live': 'off' } }} />}
      </Toaster>
    </div>
  );
}

/** Toast the server's message for a failed call (see `serverMessage`), else `fallback`; returns the text shown. */
export function notifyError(error: unknown, fallback: string, fields?: readonly string[]): string {
  const message = serverMessage(error, fields) ?? fallback;
  toast.error(message);
  return message;
}
