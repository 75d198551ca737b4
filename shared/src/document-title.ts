// The browser tab's title (docs/screens.md#navigation): the shell names it after the page shown,
// and a page that knows more once its data is in (a case's number) names it more precisely.
import { useEffect } from 'react';

/** The tab's title while the page titled `title` is shown. */
export const documentTitle = (title: string) => `${title} · Veritas`;

/**
 * Names the tab after `title` while the calling component is shown. A passive effect: it runs
 * after the shell's own naming of the route (a layout effect) in the same render, so the page's
 * name is the one that stays.
 */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
