// The Audit Log's filters form (docs/screens.md#audit-log): Actor and Target apply on Apply (or
// Enter), the dropdowns and the days as soon as they change, together with the text typed so far.
// The applied filters are the URL's; what is typed but not applied is this form's own.
import { SearchSelect, type SelectOption } from '@veritas/shared';
import { AUDIT_ACTIONS, AUDIT_OUTCOMES, AUDIT_TARGET_KINDS } from '@veritas/shared/audit-vocabulary';
import { useState, type FormEvent } from 'react';
import { MAX_ACTOR_LENGTH, MAX_TARGET_LENGTH, NO_FILTER, isFiltered, type AuditFilter } from './audit-filter';

const choices = (any: string, values: readonly string[]): SelectOption[] => [
  { value: '', label: any },
  ...values.map((value) => ({ value, label: value })),
];
const ACTIONS = choices('Any action', AUDIT_ACTIONS);
const TARGET_KINDS = choices('Any target', AUDIT_TARGET_KINDS);
const OUTCOMES = choices('Any outcome', AUDIT_OUTCOMES);

interface Texts {
  actor: string;
  target: string;
}

export function AuditFilters({ filter, onApply }: { filter: AuditFilter; onApply: (filter: AuditFilter) => void }) {
  const applied: Texts = { actor: filter.actor, target: filter.target };
  const [texts, setTexts] = useState(applied);
  // Filters applied from elsewhere (Clear filters, the browser's Back) replace what was typed.
  const [seen, setSeen] = useState(applied);
  if (seen.actor !== applied.actor || seen.target !== applied.target) {
    setSeen(applied);
    setTexts(applied);
  }

  const apply = (change: Partial<AuditFilter> = {}) =>
    onApply({ ...filter, actor: texts.actor.trim(), target: texts.target.trim(), ...change });

  function submit(event: FormEvent) {
    event.preventDefault();
    apply();
  }

  const text = (field: keyof Texts, label: string, maxLength: number) => (
    <div className="vx-field al-field">
      <label className="vx-label" htmlFor={`al-${field}`}>
        {label}
      </label>
      <input
        id={`al-${field}`}
        className="vx-input"
        value={texts[field]}
        maxLength={maxLength}
        autoComplete="off"
        onChange={(event) => setTexts((current) => ({ ...current, [field]: event.target.value }))}
      />
    </div>
  );

  const select = (field: 'action' | 'target_kind' | 'outcome', label: string, options: SelectOption[]) => (
    <div className="vx-field al-field">
      <SearchSelect
        className="al-select"
        label={label}
        options={options}
        value={filter[field]}
        onChange={(value) => apply({ [field]: value ?? '' })}
      />
    </div>
  );

  const day = (field: 'from' | 'to', label: string, bounds: { min?: string; max?: string }) => (
    <div className="vx-field al-field al-field--day">
      <label className="vx-label" htmlFor={`al-${field}`}>
        {label}
      </label>
      <input
        id={`al-${field}`}
        className="vx-input"
        type="date"
        value={filter[field]}
        {...bounds}
        onChange={(event) => apply({ [field]: event.target.value })}
      />
    </div>
  );

  const typed = texts.actor.trim() !== filter.actor || texts.target.trim() !== filter.target;

  return (
    <form className="vx-card al-filters" aria-label="Filters" onSubmit={submit}>
      <div className="al-filters__fields">
        {text('actor', 'Actor', MAX_ACTOR_LENGTH)}
        {select('action', 'Action', ACTIONS)}
        {select('target_kind', 'Target kind', TARGET_KINDS)}
        {text('target', 'Target', MAX_TARGET_LENGTH)}
        {select('outcome', 'Outcome', OUTCOMES)}
        {day('from', 'From', { max: filter.to || undefined })}
        {day('to', 'To', { min: filter.from || undefined })}
      </div>
      <div className="al-filters__actions">
        <button type="submit" className="vx-btn vx-btn-primary">
          Apply
        </button>
        <button
          type="button"
          className="vx-btn"
          disabled={!isFiltered(filter) && !texts.actor && !texts.target}
          onClick={() => {
            setTexts({ actor: '', target: '' });
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
