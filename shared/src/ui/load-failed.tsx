// What a page or list shows when its data could not be read (docs/screens.md#buttons): the
// server's message, or the page's own, in an alert, and Retry, marked busy while the read runs
// again. Without `onRetry` (a refusal trying again cannot change, such as a 403) the message
// stands alone. Rendered whether or not a read failed: it keeps the failure shown while Retry
// runs, because TanStack Query clears the error of a query that never had data as soon as it
// fetches again, and the Retry just pressed would leave the page with the keyboard's focus. When
// the read comes back, the alert and its Retry go: the focus goes to the section's heading.
import { useLayoutEffect, useRef, useState } from 'react';
import { BusyButton } from './busy-button';
import { focusSectionHeading, focusWasDropped } from './focus-heading';

export interface LoadFailedProps {
  /** The read's failure (a query's `error`), null or undefined when there is none. */
  failure: unknown;
  /** The read runs (again): a failure shown stays, with Retry busy. */
  fetching: boolean;
  /** What the failure says. */
  message: (failure: unknown) => string;
  /** Reads again; absent, no Retry is offered. */
  onRetry?: () => void;
  className?: string;
}

export function LoadFailed({ failure, fetching, message, onRetry, className }: LoadFailedProps) {
  const [kept, setKept] = useState<unknown>(null);
  const shown = failure ?? (fetching ? kept : null);
  // The failure of the last render, kept while a Retry runs (React's state adjusted while rendering).
  if (shown !== kept) setKept(shown);
  const alert = useRef<HTMLDivElement>(null);
  // Where the alert was when its Retry was pressed, until the read is over.
  const retriedIn = useRef<Element | null>(null);
  useLayoutEffect(() => {
    if (shown || !retriedIn.current) return;
    const place = retriedIn.current;
    retriedIn.current = null;
    if (focusWasDropped()) focusSectionHeading(place);
  });
  if (!shown) return null;
  return (
    <div
      ref={alert}
      className={`vx-notice vx-notice--error vx-load-failed${className ? ` ${className}` : ''}`}
      role="alert"
    >
      <span>{message(shown)}</span>
      {onRetry && (
        <BusyButton
          className="vx-btn"
          busy={fetching}
          onClick={() => {
            retriedIn.current = alert.current?.parentElement ?? null;
            onRetry();
          }}
        >
          Retry
        </BusyButton>
      )}
    </div>
  );
}
