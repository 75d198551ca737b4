import { Toaster, toast } from 'react-hot-toast';
import { serverMessage } from './http';
// The design tokens and vx- classes: every consumer of @veritas/shared renders the toaster, so they load once with it.
import './tokens.css';

/**
 * The toasts of the console (top right, 5 s; docs/errors.md#how-messages-are-shown). Use `toast`
 * from @veritas/shared, never from react-hot-toast directly: the shared singleton owns the one toast store this renders.
 */
export { toast };

export const TOAST_DURATION_MS = 5000;

/** Rendered once, by the shell (or a remote's standalone harness). */
export function VeritasToaster() {
  return <Toaster position="top-right" toastOptions={{ duration: TOAST_DURATION_MS }} />;
}

/** Toast the server's message for a failed call (see `serverMessage`), else `fallback`; returns the text shown. */
export function notifyError(error: unknown, fallback: string, fields?: readonly string[]): string {
  const message = serverMessage(error, fields) ?? fallback;
  toast.error(message);
  return message;
}
