// A box whose content may scroll inside it (a wide table on a phone, a long list). A scrolling box
// without a focusable control cannot be scrolled from the keyboard (WCAG 2.1.1; axe's
// scrollable-region-focusable), so while its content overflows it is a named region in the tab
// order. While everything fits, it is a plain box and adds no tab stop.
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

export interface ScrollRegionProps {
  /** The region's accessible name, e.g. the caption of the table it holds. */
  label: string;
  className?: string;
  children: ReactNode;
}

export function ScrollRegion({ label, className, children }: ScrollRegionProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);

  // Measured again whenever the box or its content changes size (viewport, new rows).
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => setScrolls(box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    for (const child of box.children) observer.observe(child);
    return () => observer.disconnect();
  }, [children]);

  return (
    <div ref={ref} className={className} {...(scrolls && { role: 'region', 'aria-label': label, tabIndex: 0 })}>
      {children}
    </div>
  );
}
