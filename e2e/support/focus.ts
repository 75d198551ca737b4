// Keyboard reach and visible focus (WCAG 2.1.1, 2.4.7): Tab through a page the way a keyboard user
// does and check that every control in the tab order is reached and shows a focus indicator.
//
// How an indicator is judged, without knowing how each control draws it: before the walk, each
// control's focus-relevant styles (outline, box-shadow, border and background colours, of the
// control and of two ancestors, for controls whose frame shows :focus-within) are recorded with
// nothing focused. When Tab lands on a control, those styles must differ. A ring drawn as an
// outline must also reach 3:1 against the colour behind it (WCAG 1.4.11). The mouse is parked
// at a corner first so no :hover style comes and goes during the walk.
import { Page } from 'playwright-core';

/** One Tab stop as the page saw it. */
export interface FocusStop {
  element: string;
  /** A control recorded before the walk (the others appeared during it, e.g. rows scrolled in). */
  known: boolean;
  /**
   * Focus is on a part the browser draws inside a built-in control (a date field's calendar
   * button): the control does not match :focus, and the browser draws that part's ring itself,
   * out of reach of computed styles.
   */
  inner: boolean;
  visible: boolean;
  /** The control's or an ancestor's focus-relevant styles differ from the unfocused ones. */
  changed: boolean;
  outline: boolean;
  shadow: boolean;
  /** Outline colour against the colour behind it, when the indicator is an outline. */
  outlineContrast: number | null;
}

export interface TabWalk {
  stops: FocusStop[];
  /** Controls in the tab order that Tab never reached. */
  unreached: string[];
}

/** The probe lives in the page: installed once per document by evaluation (no script tag, see axe.ts). */
function installProbe(): void {
  const w = window as unknown as { __vxFocusProbe?: unknown };
  if (w.__vxFocusProbe) return;

  const TABBABLE =
    'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex], [contenteditable]:not([contenteditable="false"])';
  const describe = (el: Element): string => {
    const name =
      el.getAttribute('aria-label') ||
      el.getAttribute('placeholder') ||
      el.textContent?.trim().replace(/\s+/g, ' ').slice(0, 40) ||
      el.getAttribute('name') ||
      el.id;
    const role = el.getAttribute('role');
    return `${el.tagName.toLowerCase()}${role ? `[role=${role}]` : ''}${name ? ` "${name}"` : ''}`;
  };
  const shown = (el: Element): boolean => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  };
  const styleOf = (el: Element | null): string => {
    if (!el) return '';
    const s = getComputedStyle(el);
    return [
      s.outlineStyle,
      s.outlineWidth,
      s.outlineColor,
      s.boxShadow,
      s.borderTopColor,
      s.borderBottomColor,
      s.backgroundColor,
    ].join(' ');
  };
  const signature = (el: Element): string =>
    [el, el.parentElement, el.parentElement?.parentElement ?? null].map(styleOf).join(' / ');

  const rgba = (color: string): [number, number, number, number] => {
    const parts = color.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
    return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1];
  };
  const luminance = ([r, g, b]: number[]): number => {
    const [R, G, B] = [r!, g!, b!].map((v) => {
      const c = v / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!;
  };
  /** The colour behind an element's outline: its ancestors' backgrounds composited over white. */
  const backdrop = (el: Element): number[] => {
    const layers: [number, number, number, number][] = [];
    for (let e = el.parentElement; e; e = e.parentElement) {
      const layer = rgba(getComputedStyle(e).backgroundColor);
      if (layer[3] > 0) layers.push(layer);
      if (layer[3] >= 1) break;
    }
    return layers.reduceRight<number[]>(
      (below, [r, g, b, a]) => [r * a + below[0]! * (1 - a), g * a + below[1]! * (1 - a), b * a + below[2]! * (1 - a)],
      [255, 255, 255],
    );
  };
  const contrast = (a: number[], b: number[]): number => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return Math.round(((hi! + 0.05) / (lo! + 0.05)) * 100) / 100;
  };

  const baseline = new Map<Element, string>();
  w.__vxFocusProbe = {
    /** Records the unfocused styles of every control a keyboard user should reach; inside an open modal dialog, only its controls. */
    record(): string[] {
      // The walk starts at the top of the document, wherever the state left focus: a focused
      // element that is removed leaves the next Tab to start where it was.
      const start = document.createElement('span');
      start.tabIndex = -1;
      document.body.prepend(start);
      start.focus({ preventScroll: true });
      (document.activeElement as HTMLElement | null)?.blur();
      start.remove();
      baseline.clear();
      const scope = document.querySelector('[aria-modal="true"]') ?? document;
      for (const el of scope.querySelectorAll(TABBABLE)) {
        if ((el as HTMLElement).tabIndex < 0 || el.matches(':disabled') || el.closest('[inert]') || !shown(el))
          continue;
        baseline.set(el, signature(el));
      }
      return [...baseline.keys()].map(describe);
    },
    /** The focused element and its indicator; null while focus is on no control (the page itself). */
    inspect(): (FocusStop & { index: number }) | null {
      const el = document.activeElement;
      if (!el || el === document.body || el === document.documentElement) return null;
      const s = getComputedStyle(el);
      const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1 && rgba(s.outlineColor)[3] > 0;
      const known = baseline.has(el);
      return {
        index: known ? [...baseline.keys()].indexOf(el) : -1,
        element: describe(el),
        known,
        inner: !el.matches(':focus'),
        visible: shown(el),
        changed: known && baseline.get(el) !== signature(el),
        outline,
        shadow: s.boxShadow !== 'none',
        outlineContrast: outline ? contrast(rgba(s.outlineColor), backdrop(el)) : null,
      };
    },
  };
}

type Probe = { record(): string[]; inspect(): (FocusStop & { index: number }) | null };

/**
 * Tabs through the page from its start until every recorded control was reached (or twice as
 * many presses as controls, plus some, have gone by), and returns each stop and what was missed.
 */
export async function tabThrough(page: Page): Promise<TabWalk> {
  await page.mouse.move(0, 0);
  // A control whose code still loads (a dropdown's fallback, marked busy) is replaced when the
  // code arrives: the new element would have no unfocused record, so the walk waits for it.
  await page.waitForFunction(() => !document.querySelector('input[aria-busy="true"]'));
  await page.evaluate(installProbe);
  const controls = await page.evaluate(() => (window as unknown as { __vxFocusProbe: Probe }).__vxFocusProbe.record());
  const reached = new Set<number>();
  const stops: FocusStop[] = [];
  for (let press = 0; press < controls.length * 2 + 10 && reached.size < controls.length; press++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => (window as unknown as { __vxFocusProbe: Probe }).__vxFocusProbe.inspect());
    if (!stop) continue;
    const { index, ...rest } = stop;
    if (index >= 0) reached.add(index);
    stops.push(rest);
  }
  return { stops, unreached: controls.filter((_, i) => !reached.has(i)) };
}

/** Why a stop fails: no indicator, or one too faint to see; null when it is fine. */
export function focusProblem(stop: FocusStop): string | null {
  if (!stop.visible) return 'focus is on an element that cannot be seen';
  if (stop.inner) return null;
  // A control that appeared during the walk has no unfocused record: it needs a ring of its own.
  const indicated = stop.known ? stop.changed : stop.outline || stop.shadow;
  if (!indicated) return 'no visible focus indicator';
  if (stop.outlineContrast !== null && stop.outlineContrast < 3)
    return `focus ring contrast ${stop.outlineContrast}:1 against its background (3:1 needed)`;
  return null;
}

/** Fails, listing each problem, unless Tab reaches every control of the page and each shows its focus. */
export async function expectKeyboardReachWithVisibleFocus(page: Page, screenName: string): Promise<void> {
  const { stops, unreached } = await tabThrough(page);
  const problems = [
    ...unreached.map((control) => `not reached with Tab: ${control}`),
    ...stops.flatMap((stop) => {
      const problem = focusProblem(stop);
      return problem ? [`${stop.element}: ${problem}`] : [];
    }),
  ];
  if (stops.length === 0) problems.push('Tab reached no control at all');
  if (problems.length > 0)
    throw new Error(`${screenName}: keyboard problems\n${[...new Set(problems)].map((p) => `    ${p}`).join('\n')}`);
}
