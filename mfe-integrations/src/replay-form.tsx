// Replay failed, in an endpoint's delivery log (docs/screens.md#integrations): every failed delivery
// made since a time the admin picks is delivered again; the form says what it came to.
import { BusyButton, serverMessage, toast } from '@veritas/shared';
import type { WebhookEndpoint } from '@veritas/shared/domain';
import { useId, useState, type FormEvent } from 'react';
import { useReplayFailed } from './api/webhooks';
import { LOG_MESSAGES } from './delivery-log-text';
import { replayedText } from './webhook-text';

/** Replay failed since a time of the admin's zone: POST …/replay/ with that instant. */
export function ReplayForm({ endpoint }: { endpoint: WebhookEndpoint }) {
  const id = useId();
  const replay = useReplayFailed();
  const [since, setSince] = useState('');
  const [fault, setFault] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (replay.isPending) return;
    const instant = since ? new Date(since) : null;
    if (!instant || Number.isNaN(instant.getTime())) return setFault(LOG_MESSAGES.replayMissing);
    setFault(null);
    try {
      const { replayed } = await replay.mutateAsync({ endpointId: endpoint.id, since: instant.toISOString() });
      toast.success(replayedText(replayed));
    } catch (failure) {
      setFault(serverMessage(failure) ?? LOG_MESSAGES.replayFailed);
    }
  }

  return (
    <form
      className="ig-replay"
      aria-label={`Replay failed deliveries to ${endpoint.url}`}
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      <div className="vx-field">
        <label className="vx-label" htmlFor={`${id}-since`}>
          {LOG_MESSAGES.replayLabel}
        </label>
        <input
          id={`${id}-since`}
          className="vx-input"
          type="datetime-local"
          value={since}
          aria-invalid={fault ? true : undefined}
          aria-describedby={[`${id}-hint`, fault ? `${id}-error` : ''].filter(Boolean).join(' ')}
          onChange={(event) => setSince(event.target.value)}
        />
        <p id={`${id}-hint`} className="vx-hint">
          {LOG_MESSAGES.replayHint}
        </p>
        {fault && (
          <p id={`${id}-error`} className="vx-error-text vx-field-error" role="alert">
            {fault}
          </p>
        )}
      </div>
      <BusyButton type="submit" className="vx-btn" busy={replay.isPending}>
        {replay.isPending ? LOG_MESSAGES.replaying : LOG_MESSAGES.replayButton}
      </BusyButton>
    </form>
  );
}
