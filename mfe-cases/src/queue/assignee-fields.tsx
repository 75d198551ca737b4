// Assign to, in the bulk actions' form (docs/screens.md#cases-queue): when the queues of the cases
// selected are known, a choice of the users who may work every one of them; else a username typed,
// or Unassigned. And a field's fault as the form shows it under the field.
import { MAX_USERNAME_LENGTH, SearchSelect, type CaseSummary, type SelectOption } from '@veritas/shared';
import { MAX_ASSIGNEE_QUEUES_LENGTH } from '@veritas/shared/case-vocabulary';
import { useQuery } from '@veritas/shared/query';
import { useEffect, useId } from 'react';
import { assigneesQuery } from '../api/cases';
import { assigneeLabel } from '../case/case-text';
import { BULK_MESSAGES, numberText } from './bulk-text';

/**
 * The queues of the cases a bulk assignment would change, when they are known (docs/screens.md#cases-queue):
 * the ticked rows' queues; with all matching selected, the Queue filter's, else the viewer's own
 * group's when it reads only that queue (an incharge), else the queues of the rows shown once they
 * are every case matching. Each once, in capitals, sorted. null when they are not known (all
 * matching across queues not all read), or too many to ask api/cases/assignees/ about at once.
 */
export function assignQueues({
  allMatching,
  ids,
  rows,
  allLoaded,
  filterQueue,
  ownQueue,
}: {
  allMatching: boolean;
  ids: readonly number[];
  rows: readonly CaseSummary[];
  allLoaded: boolean;
  filterQueue: string;
  ownQueue: string | null;
}): string[] | null {
  const distinct = (codes: readonly string[]) =>
    [...new Set(codes.map((code) => code.trim().toUpperCase()).filter(Boolean))].sort();
  let queues: string[];
  if (!allMatching) {
    const ticked = new Set(ids);
    queues = distinct(rows.filter((row) => ticked.has(row.id)).map((row) => row.queue));
  } else if (filterQueue.trim()) queues = distinct([filterQueue]);
  else if (ownQueue?.trim()) queues = distinct([ownQueue]);
  else if (allLoaded) queues = distinct(rows.map((row) => row.queue));
  else return null;
  if (queues.length === 0 || queues.join(',').length > MAX_ASSIGNEE_QUEUES_LENGTH) return null;
  return queues;
}

/** The most queues the hint under Assign to names; more are counted. */
const QUEUES_NAMED = 5;

function queuesHint(queues: readonly string[]): string {
  if (queues.length === 1) return `Users who may work queue ${queues[0]}.`;
  const named =
    queues.length <= QUEUES_NAMED
      ? queues.join(', ')
      : `${queues.slice(0, QUEUES_NAMED).join(', ')} and ${numberText(queues.length - QUEUES_NAMED)} more`;
  return `Users who may work every queue selected: ${named}.`;
}

interface AssigneeFieldProps {
  assignee: string | null;
  onChange: (assignee: string | null) => void;
  error: string | null;
}

/** A field's fault under it; announced, as a choice of the searchable select cannot be described by it. */
export function FieldError({ id, error }: { id: string; error: string | null }) {
  return error ? (
    <p id={id} className="vx-error-text" role="alert">
      {error}
    </p>
  ) : null;
}

/** Assign to: Unassigned, or one of the users who may work every queue of the cases selected. */
export function AssigneeChoice({
  queues,
  assignee,
  onChange,
  error,
}: AssigneeFieldProps & { queues: readonly string[] }) {
  const id = useId();
  // One call for every queue (api/cases/assignees/?queue=A,B): the users who may work each of them.
  const { data: users, error: usersError } = useQuery(assigneesQuery(queues.join(',')));
  // A user chosen (or typed) before the cases selected changed, who may not work all their queues, is not offered.
  useEffect(() => {
    if (users && assignee && !users.some((user) => user.username === assignee)) onChange(null);
  }, [users, assignee, onChange]);
  const options: SelectOption[] = [
    { value: '', label: 'Unassigned' },
    ...(users ?? []).map((user) => ({
      value: user.username,
      label: assigneeLabel(user),
    })),
  ];
  return (
    <div className="vx-field cq-field" data-invalid={error ? true : undefined}>
      <SearchSelect
        className="cq-select"
        label="Assign to"
        options={options}
        value={assignee}
        placeholder={queues.length === 1 ? `A user of ${queues[0]}` : 'A user of every queue selected'}
        loading={!users && !usersError}
        onChange={onChange}
      />
      <p className="vx-hint">{queuesHint(queues)}</p>
      <FieldError id={`${id}-error`} error={error ?? (usersError ? BULK_MESSAGES.assigneesFailed : null)} />
    </div>
  );
}

/** Assign to, the queues not known: a username typed, or Unassigned. */
export function AssigneeTyped({ assignee, onChange, error }: AssigneeFieldProps) {
  const id = useId();
  const unassigned = assignee === '';
  const described = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <>
      <div className="vx-field cq-field" data-invalid={error ? true : undefined}>
        <label className="vx-label" htmlFor={`${id}-user`}>
          Assign to (username)
        </label>
        <input
          id={`${id}-user`}
          className="vx-input"
          value={unassigned ? '' : (assignee ?? '')}
          disabled={unassigned}
          maxLength={MAX_USERNAME_LENGTH}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          onChange={(event) => onChange(event.target.value || null)}
        />
        <p id={`${id}-hint`} className="vx-hint">
          {BULK_MESSAGES.anyQueue}
        </p>
        {error && (
          <p id={`${id}-error`} className="vx-error-text">
            {error}
          </p>
        )}
      </div>
      <div className="vx-field cq-field cq-field--check">
        <input
          id={`${id}-none`}
          type="checkbox"
          className="cq-checkbox"
          checked={unassigned}
          onChange={(event) => onChange(event.target.checked ? '' : null)}
        />
        <label htmlFor={`${id}-none`}>Unassigned</label>
      </div>
    </>
  );
}
