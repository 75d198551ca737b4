// The confirmation of one change of a remote's rollout (docs/screens.md#deployments); a canary's
// share of users is asked in it, checked against the registry's own schema.
import { toast } from '@veritas/shared';
import { CanaryPayload, formProblem } from '@veritas/shared/domain';
import { useId, useState } from 'react';
import { useRolloutChange, type RolloutChange } from './api';
import { ConfirmDialog } from './confirm-dialog';
import { v, type Pending } from './rollout-requests';

export interface RolloutDialogProps {
  pending: Pending;
  live: number | null;
  /** The share the running canary has, if any: where the field starts. */
  canaryPercent: number | undefined;
  /** Called as the change is sent. */
  onChanging(): void;
  /** Called with what was done, once it is. */
  onDone(notice: string): void;
  onClose(): void;
}

export function RolloutDialog({ pending, live, canaryPercent, onChanging, onDone, onClose }: RolloutDialogProps) {
  const percentId = useId();
  const percentHintId = useId();
  const rollout = useRolloutChange();
  const [percent, setPercent] = useState(String(canaryPercent ?? 10));
  const percentValue = Number(percent);
  const change: RolloutChange =
    pending.change.action === 'canary' ? { ...pending.change, percent: percentValue } : pending.change;

  async function confirm() {
    onChanging();
    await rollout.mutateAsync(change);
    const done = pending.done(percentValue);
    toast.success(done);
    onDone(done);
  }

  return (
    <ConfirmDialog
      title={pending.title}
      message={pending.message}
      confirmLabel={pending.confirmLabel}
      danger={pending.danger}
      failedText="The change could not be made."
      validate={pending.asksPercent ? () => formProblem(CanaryPayload, change) : undefined}
      onConfirm={confirm}
      onClose={onClose}
    >
      {pending.asksPercent && (
        <div className="vx-field">
          <label className="vx-label" htmlFor={percentId}>
            Share of users (%)
          </label>
          <input
            id={percentId}
            className="vx-input"
            type="number"
            inputMode="numeric"
            min={1}
            max={99}
            step={1}
            required
            data-autofocus
            aria-describedby={percentHintId}
            value={percent}
            onChange={(event) => setPercent(event.target.value)}
          />
          <p id={percentHintId} className="vx-hint">
            1 to 99 percent of users get this version; the rest keep {live === null ? 'what is live' : v(live)}.
          </p>
        </div>
      )}
    </ConfirmDialog>
  );
}
