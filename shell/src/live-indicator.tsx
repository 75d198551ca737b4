import { useLiveStatus, type LiveStatus } from '@veritas/shared';

const TEXT: Record<LiveStatus, { label: string; hint: string }> = {
  connected: { label: 'Live', hint: 'Changes show as they happen' },
  reconnecting: { label: 'Reconnecting…', hint: 'The connection was lost; changes show again once it is back' },
  paused: { label: 'Paused', hint: 'Paused while this tab is hidden or offline; changes show again when it is back' },
};

/**
 * The live indicator of the top bar (docs/screens.md#live-indicator): shown only while the event
 * stream is in use. Its text says the state; the dot's shape repeats it. A status region, so a
 * change is announced; not focusable, as it does nothing.
 */
export function LiveIndicator() {
  const status = useLiveStatus();
  if (!status) return null;
  const { label, hint } = TEXT[status];
  return (
    <span
      className="shell-live"
      role="status"
      aria-live="polite"
      aria-label={`Live updates: ${label}`}
      title={hint}
      data-testid="live-indicator"
      data-state={status}
    >
      <span className="shell-live-dot" aria-hidden="true" />
      {label}
    </span>
  );
}
