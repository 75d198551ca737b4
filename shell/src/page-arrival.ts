// What a page of the console does as it arrives (docs/screens.md#navigation): it names the browser's
// tab, and after a navigation inside the console its level-one heading takes the keyboard's focus
// where the browser would have dropped it to the page (the menu item, the dialog's link or the
// button that held it is gone), so that a screen reader says where its user now is.
import { documentTitle, focusWasDropped, useLocation } from '@veritas/shared';
import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/** How long after a navigation a page still arriving (its code, then its data) may take the focus. */
export const ARRIVAL_MS = 10_000;

/**
 * The tab's title while the page titled `title` (as its remote declares it) is shown. A layout
 * effect: in a render that also shows the page, it runs before the page's own useDocumentTitle
 * (a passive effect), which may name the tab more precisely ('Case #7').
 */
export function usePageTitle(title: string): void {
  useLayoutEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}

/**
 * After each change of path but the first (a page load keeps the browser's own focus), the first
 * level-one heading in `main` takes the focus whenever the focus has fallen to the page, until the
 * user acts (a key, a pointer, a wheel) or ARRIVAL_MS pass: the page may show a loading heading
 * first and its own after. Without scrolling, as the user may already have scrolled.
 */
export function useFocusOnArrival(main: RefObject<HTMLElement | null>): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const area = main.current;
    if (!area) return;
    const focusHeading = () => {
      const heading = area.querySelector<HTMLElement>('h1');
      if (!heading || !focusWasDropped()) return;
      if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    };
    const observer = new MutationObserver(focusHeading);
    const stop = () => {
      observer.disconnect();
      clearTimeout(timer);
      for (const type of USER_ACTS) window.removeEventListener(type, stop, true);
    };
    const timer = setTimeout(stop, ARRIVAL_MS);
    for (const type of USER_ACTS) window.addEventListener(type, stop, true);
    observer.observe(area, { childList: true, subtree: true });
    focusHeading();
    return stop;
  }, [pathname, main]);
}

const USER_ACTS = ['keydown', 'pointerdown', 'wheel'] as const;
