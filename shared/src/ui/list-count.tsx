// A list's count line as a status message (WCAG 4.1.3, docs/screens.md#live-updates): a screen
// reader announces the count that a filter gives once it is in, and not every change that live
// updates then make to it (on a busy hub the Device Pick List asks for its count every second).
// One element, always in the page, so its text is read where it stands; `aria-live` is switched
// off for the changes after a list's first count, in the same render as the text it leaves
// unannounced.
import { useState, type ReactNode } from 'react';

export interface ListCountProps {
  /**
   * The list whose count `text` is (its filters, as a key); null while the line shows no count of
   * its own list (the previous list's kept while the next one is counted).
   */
  countOf: string | null;
  /** What the line says; empty while there is no count yet. */
  text: string;
  /** Rendered in place of `text` when given (e.g. `text` in an element a test reads). */
  children?: ReactNode;
  className?: string;
  as?: 'p' | 'span';
}

export function ListCount({ countOf, text, children, className, as: Element = 'span' }: ListCountProps) {
  const [first, setFirst] = useState<{ countOf: string; text: string } | null>(null);
  const counted = countOf !== null && text !== '';
  // The first count of a list is kept during the render that shows it (React renders again at once).
  if (counted && first?.countOf !== countOf) setFirst({ countOf, text });
  const isFirstOfItsList = counted && (first?.countOf !== countOf || first.text === text);
  return (
    <Element className={className} aria-live={isFirstOfItsList ? 'polite' : 'off'}>
      {children ?? text}
    </Element>
  );
}
