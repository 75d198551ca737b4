// The Cases queue's filters form: Queue and a typed assignee apply on Apply (or Enter), the
// dropdowns, the checkbox and the days as soon as they change, together with the text typed so
// far. The applied filters are the URL's; what is typed but not applied is this form's own.
import { SearchSelect, deviceError, type SelectOption } from '@veritas/shared';
import { CASE_REASONS, CASE_STATE_LABELS } from '@veritas/shared/case-vocabulary';
import { useState, type FormEvent } from 'react';
import {
  ASSIGNEE_ME,
  ASSIGNEE_NONE,
  MAX_ASSIGNEE_LENGTH,
  MAX_QUEUE_LENGTH,
  NO_FILTER,
  isFiltered,
  type CaseFilter,
} from './case-filter';

/** A reason as the page shows it: its code and the device error catalogue's title. */
export const reasonText = (code: string): string => {
  const title = deviceError(code)?.title;
  return title ? `${code} ${title}` : code;
};

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

interface Texts {
  queue: string;
  username: string;
}

export function CaseFilters({ filter, onApply }: { filter: CaseFilter; onApply: (filter: CaseFilter) => void }) {
  const applied: Texts = { queue: filter.queue, username: isUsername(filter.assignee) ? filter.assignee : '' };
  const [texts, setTexts] = useState(applied);
  // "A user…" chosen, its username not applied yet.
  const [choosingUser, setChoosingUser] = useState(false);
  // Filters applied from elsewhere (Clear filters, a saved view, the browser's Back) replace what was typed.
  const [seen, setSeen] = useState(applied);
  if (seen.queue !== applied.queue || seen.username !== applied.username) {
    setSeen(applied);
    setTexts(applied);
    setChoosingUser(false);
  }

  const userMode = choosingUser || isUsername(filter.assignee);
  // With "A user…" chosen, the assignee is the username typed so far.
  const assignee = userMode ? texts.username.trim() : filter.assignee;

  const apply = (change: Partial<CaseFilter> = {}) =>
    onApply({ ...filter, queue: texts.queue.trim(), assignee, ...change });

  function submit(event: FormEvent) {
    event.preventDefault();
    apply();
  }

  function chooseAssignee(value: string) {
    if (value === A_USER) return setChoosingUser(true);
    setChoosingUser(false);
    setTexts((current) => ({ ...current, username: '' }));
    apply({ assignee: value });
  }

  const text = (field: keyof Texts, id: string, label: string, maxLength: number, hint?: string) => (
    <div className="vx-field cq-field">
      <label className="vx-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="vx-input"
        value={texts[field]}
        maxLength={maxLength}
        autoComplete="off"
        spellCheck={false}
        placeholder={hint}
        onChange={(event) => setTexts((current) => ({ ...current, [field]: event.target.value }))}
      />
    </div>
  );

  const day = (field: 'from' | 'to', label: string, bounds: { min?: string; max?: string }) => (
    <div className="vx-field cq-field">
      <label className="vx-label" htmlFor={`cq-${field}`}>
        {label}
      </label>
      <input
        id={`cq-${field}`}
        className="vx-input"
        type="date"
        value={filter[field]}
        {...bounds}
        onChange={(event) => apply({ [field]: event.target.value })}
      />
    </div>
  );

  const typed = texts.queue.trim() !== filter.queue || (userMode && assignee !== filter.assignee);

  return (
    <form className="vx-card cq-filters" aria-label="Filters" onSubmit={submit}>
      <div className="cq-filters__fields">
        <div className="vx-field cq-field">
          <SearchSelect
            className="cq-select"
            label="Reason"
            options={REASONS}
            value={filter.reason}
            onChange={(value) => apply({ reason: (value ?? '') as CaseFilter['reason'] })}
          />
        </div>
        <div className="vx-field cq-field">
          <SearchSelect
            className="cq-select"
            label="State"
            options={STATES}
            value={filter.state}
            onChange={(value) => value && apply({ state: value as CaseFilter['state'] })}
          />
        </div>
        {text('queue', 'cq-queue', 'Queue', MAX_QUEUE_LENGTH, 'Hub or RC code')}
        <div className="vx-field cq-field">
          <SearchSelect
            className="cq-select"
            label="Assignee"
            options={ASSIGNEES}
            value={userMode ? A_USER : filter.assignee}
            onChange={(value) => chooseAssignee(value ?? '')}
          />
        </div>
        {userMode && text('username', 'cq-username', 'Assignee’s username', MAX_ASSIGNEE_LENGTH)}
        {day('from', 'Opened from', { max: filter.to || undefined })}
        {day('to', 'Opened to', { min: filter.from || undefined })}
        <div className="vx-field cq-field cq-field--check">
          <input
            id="cq-overdue"
            type="checkbox"
            className="cq-checkbox"
            checked={filter.overdue}
            onChange={(event) => apply({ overdue: event.target.checked })}
          />
          <label htmlFor="cq-overdue">Overdue only</label>
        </div>
      </div>
      <div className="cq-filters__actions">
        <button type="submit" className="vx-btn vx-btn-primary">
          Apply
        </button>
        <button
          type="button"
          className="vx-btn"
          disabled={!isFiltered(filter) && !texts.queue && !texts.username && !choosingUser}
          onClick={() => {
            setTexts({ queue: '', username: '' });
            setChoosingUser(false);
            onApply(NO_FILTER);
          }}
        >
          Clear filters
        </button>
        {typed && <span className="vx-hint">Press Apply to filter by the text typed.</span>}
      </div>
    </form>
  );
}
