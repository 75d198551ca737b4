// Due times (docs/cases.md#due-times), for a super_admin: the hours from opening to due of each
// reason, in a disclosure under the queue's filters. New cases are due by them; open ones keep theirs.
import { BusyButton, notifyError, toast } from '@veritas/shared';
import { CASE_REASONS, DUE_HOURS_RULE, MAX_DUE_HOURS } from '@veritas/shared/case-vocabulary';
import { useMutation, useQueryClient, useQueryError, useQueryNow } from '@veritas/shared/query';
import { useId, useState, type FormEvent } from 'react';
import { dueTimesQuery, saveDueTimes } from '../api/cases';
import { reasonText } from '../case/case-text';

export const DUE_MESSAGES = {
  loadFailed: 'Failed to load the due times',
  saveFailed: 'Failed to save the due times',
  invalid: DUE_HOURS_RULE,
  saved: 'Due times saved: new cases are due by them.',
} as const;

const validHours = (text: string) => /^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= MAX_DUE_HOURS;

export function DueTimes() {
  const client = useQueryClient();
  const headingId = useId();
  const errorId = useId();
  const { data, error } = useQueryNow(dueTimesQuery);
  useQueryError(error, (failure) => notifyError(failure, DUE_MESSAGES.loadFailed));
  // The hours typed, by reason; a reason not typed shows the server's.
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [invalid, setInvalid] = useState(false);
  const save = useMutation({
    mutationFn: saveDueTimes,
    onSuccess: (hours) => {
      client.setQueryData(dueTimesQuery.queryKey, hours);
      setTyped({});
      toast.success(DUE_MESSAGES.saved);
    },
    onError: (failure) => notifyError(failure, DUE_MESSAGES.saveFailed),
  });

  const shown = (reason: string) => typed[reason] ?? String(data?.[reason] ?? '');

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    const changed = Object.entries(typed);
    if (changed.some(([, text]) => !validHours(text.trim()))) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    if (changed.length) save.mutate(Object.fromEntries(changed.map(([reason, text]) => [reason, Number(text.trim())])));
  }

  return (
    <details className="vx-card cq-due">
      <summary>Due times</summary>
      <form aria-labelledby={headingId} onSubmit={submit} noValidate>
        <h2 id={headingId} className="cq-due__title">
          Hours from opening to due, per reason
        </h2>
        <div className="cq-due__grid">
          {CASE_REASONS.map((reason) => (
            <label key={reason} className="cq-due__field">
              <span>{reasonText(reason)}</span>
              <input
                className="vx-input"
                inputMode="numeric"
                value={shown(reason)}
                aria-invalid={invalid && reason in typed && !validHours(typed[reason]!.trim()) ? true : undefined}
                aria-describedby={invalid ? errorId : undefined}
                onChange={(event) => setTyped((before) => ({ ...before, [reason]: event.target.value }))}
              />
            </label>
          ))}
        </div>
        {invalid && (
          <p id={errorId} className="vx-error-text" role="alert">
            {DUE_MESSAGES.invalid}
          </p>
        )}
        <BusyButton type="submit" className="vx-btn vx-btn-primary" disabled={!data} busy={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save due times'}
        </BusyButton>
      </form>
    </details>
  );
}
