// The protected layout's sign-in check (docs/screens.md#protected-layout), once per page load.
import { loadSession, loadSessionOfViewer, setLoginRedirect } from '@veritas/shared';

let started: Promise<boolean> | null = null;

/**
 * On a page load of a signed-in page the check starts with the shell's code instead of after it
 * (docs/architecture.md#first-rows); for a document composed for a signed-in user, with the role
 * asked alongside. Until the layout mounts, a session found over does not reload the page at
 * /login: the layout sees the check fail and goes there through the router.
 */
export function startSessionCheck(composedForSignedIn: boolean): void {
  setLoginRedirect(() => {});
  started = composedForSignedIn ? loadSessionOfViewer() : loadSession();
}

/** The check for the layout's mount: the one the page load started, once; else a new one. */
export function sessionCheck(): Promise<boolean> {
  const check = started ?? loadSession();
  started = null;
  return check;
}
