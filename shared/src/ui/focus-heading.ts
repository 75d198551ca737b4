// Where the keyboard's focus goes when the control that held it leaves the page with a change it
// asked for (a Retry whose read came back, a finished job closed): the browser would drop it to
// the page's body. It goes to the heading of the section around that place instead
// (docs/screens.md#dialogs), which takes focus from script only.

/**
 * Whether the keyboard's focus fell to the page: nothing or the body holds it, or the control that
 * held it was disabled with the change (a browser moves the focus off it; jsdom keeps it there).
 */
export function focusWasDropped(): boolean {
  const focused = document.activeElement as HTMLButtonElement | null;
  return focused === null || focused === document.body || focused.disabled === true;
}

/** Gives the focus to the first heading of the section `place` is in; none, nothing happens. */
export function focusSectionHeading(place: Element | null): void {
  const heading = place?.closest('section')?.querySelector<HTMLElement>('h1, h2, h3');
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus();
}
