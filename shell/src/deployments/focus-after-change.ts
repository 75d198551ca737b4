// After a confirmed change the button that asked for it may be gone or disabled with the change (a
// version promoted or retired, a token revoked, an origin removed): the dialog gives the focus back
// to it, and the browser drops it to the page's body once the button leaves. The focus goes to the
// section's heading instead (docs/screens.md#dialogs).
import { focusWasDropped } from '@veritas/shared';
import { useEffect, useRef } from 'react';

/**
 * `data`: what the section shows, whose change tells that the change is in; `dialogOpen`: whether
 * its confirmation is open. Returns the ref of the heading to focus and `changing()`, called as a
 * change is confirmed.
 */
export function useFocusAfterChange<T extends HTMLElement>(data: unknown, dialogOpen: boolean) {
  const heading = useRef<T>(null);
  // What the section showed when the change was confirmed; null when no change is under way.
  const changedFrom = useRef<{ data: unknown } | null>(null);
  useEffect(() => {
    const from = changedFrom.current;
    if (!from || dialogOpen || from.data === data) return;
    changedFrom.current = null;
    if (focusWasDropped()) heading.current?.focus();
  });
  const changing = () => {
    changedFrom.current = { data };
  };
  return { heading, changing };
}
