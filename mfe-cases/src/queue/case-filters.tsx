// The Cases queue's filters form, a filters form of @veritas/shared/filters: Queue and a typed
// assignee apply on Apply (or Enter), the dropdowns, the checkbox and the days as soon as they
// change, together with the text typed so far.
import { MAX_USERNAME_LENGTH, SearchSelect, type SelectOption } from '@veritas/shared';
import { CASE_REASONS, CASE_STATE_LABELS, MAX_CASE_QUEUE_LENGTH } from '@veritas/shared/case-vocabulary';
import { DayFilter, FiltersForm, TextFilter, useTypedTexts } from '@veritas/shared/filters';
import { useState } from 'react';
import { reasonText } from '../case/case-text';
import { ASSIGNEE_ME, ASSIGNEE_NONE, NO_FILTER, isFiltered, type CaseFilter } from './case-filter';

const REASONS: SelectOption[] = [
  { value: '', label: 'Any reason' },
  ...CASE_REASONS.map((code) => ({ value: code, label: reasonText(code) })),
];

export const STATES: SelectOption[] = [
  { value: 'active', label: 'Active (open and in review)' },
  { value: 'open', label: CASE_STATE_LABELS.open },
  { value: 'in_review', label: CASE_STATE_LABELS.in_review },
  { value: 'resolved', label: CASE_STATE_LABELS.resolved },
  { value: 'all', label: 'All' },
];

/** The Assignee dropdown's choice that shows the username box. */
const A_USER = 'user';
const ASSIGNEES: SelectOption[] = [
  { value: '', label: 'Anyone' },
  { value: ASSIGNEE_ME, label: 'Me' },
  { value: ASSIGNEE_NONE, label: 'Unassigned' },
  { value: A_USER, label: 'A user…' },
];

const isUsername = (assignee: string) => assignee !== '' && assignee !== ASSIGNEE_ME && assignee !== ASSIGNEE_NONE;

export function CaseFilters({ filter, onApply }: { filter: CaseFilter; onApply: (filter: CaseFilter) => void }) {
  // "A user…" chosen, its username not applied yet.
  const [choosingUser, setChoosingUser] = useState(false);
  const { texts, type, clear, anyText } = useTypedTexts(
    { queue: filter.queue, username: isUsername(filter.assignee) ? filter.assignee : '' },
    () => setChoosingUser(false),
  );

  const userMode = choosingUser || isUsername(filter.assignee);
  // With "A user…" chosen, the assignee is the username typed so far.
  const assignee = userMode ? texts.username.trim() : filter.assignee;

  const apply = (change: Partial<CaseFilter> = {}) =>
    onApply({ ...filter, queue: texts.queue.trim(), assignee, ...change });

  function chooseAssignee(value: string) {
    if (value === A_USER) return setChoosingUser(true);
    setChoosingUser(false);
    type('username', '');
    apply({ assignee: value });
  }

  const text = (field: 'queue' | 'username', id: string, label: string, maxLength: number, hint?: string) => (
    <TextFilter
      id={id}
      label={label}
      value={texts[field]}
      maxLength={maxLength}
      placeholder={hint}
      onChange={(value) => type(field, value)}
    />
  );

  return (
    <FiltersForm
      onApply={() => apply()}
      canClear={isFiltered(filter) || anyText || choosingUser}
      onClear={() => {
        clear();
        setChoosingUser(false);
        onApply(NO_FILTER);
      }}
      typed={texts.queue.trim() !== filter.queue || (userMode && assignee !== filter.assignee)}
    >
      <div className="vx-field">
        <SearchSelect
          label="Reason"
          options={REASONS}
          value={filter.reason}
          onChange={(value) => apply({ reason: (value ?? '') as CaseFilter['reason'] })}
        />
      </div>
      <div className="vx-field">
        <SearchSelect
          label="State"
          options={STATES}
          value={filter.state}
          onChange={(value) => value && apply({ state: value as CaseFilter['state'] })}
        />
      </div>
      {text('queue', 'cq-queue', 'Queue', MAX_CASE_QUEUE_LENGTH, 'Hub or RC code')}
      <div className="vx-field">
        <SearchSelect
          label="Assignee"
          options={ASSIGNEES}
          value={userMode ? A_USER : filter.assignee}
          onChange={(value) => chooseAssignee(value ?? '')}
        />
      </div>
      {userMode && text('username', 'cq-username', 'Assignee’s username', MAX_USERNAME_LENGTH)}
      <DayFilter
        id="cq-from"
        label="Opened from"
        value={filter.from}
        max={filter.to}
        onChange={(from) => apply({ from })}
      />
      <DayFilter id="cq-to" label="Opened to" value={filter.to} min={filter.from} onChange={(to) => apply({ to })} />
      <div className="vx-field cq-field--check">
        <input
          id="cq-overdue"
          type="checkbox"
          className="cq-checkbox"
          checked={filter.overdue}
          onChange={(event) => apply({ overdue: event.target.checked })}
        />
        <label htmlFor="cq-overdue">Overdue only</label>
      </div>
    </FiltersForm>
  );
}
