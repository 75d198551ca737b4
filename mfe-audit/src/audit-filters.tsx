// The Audit Log's filters form (docs/screens.md#audit-log), a filters form of
// @veritas/shared/filters: Actor and Target apply on Apply (or Enter), the dropdowns and the days as
// soon as they change, together with the text typed so far.
import { SearchSelect, type SelectOption } from '@veritas/shared';
import {
  AUDIT_ACTIONS,
  AUDIT_OUTCOMES,
  AUDIT_TARGET_KINDS,
  MAX_AUDIT_ACTOR_LENGTH,
  MAX_AUDIT_TARGET_LENGTH,
} from '@veritas/shared/audit-vocabulary';
import { DayFilter, FiltersForm, TextFilter, useTypedTexts } from '@veritas/shared/filters';
import { NO_FILTER, isFiltered, type AuditFilter } from './audit-filter';

const choices = (any: string, values: readonly string[]): SelectOption[] => [
  { value: '', label: any },
  ...values.map((value) => ({ value, label: value })),
];
const ACTIONS = choices('Any action', AUDIT_ACTIONS);
const TARGET_KINDS = choices('Any target', AUDIT_TARGET_KINDS);
const OUTCOMES = choices('Any outcome', AUDIT_OUTCOMES);

export function AuditFilters({ filter, onApply }: { filter: AuditFilter; onApply: (filter: AuditFilter) => void }) {
  const { texts, type, clear, anyText } = useTypedTexts({ actor: filter.actor, target: filter.target });

  const apply = (change: Partial<AuditFilter> = {}) =>
    onApply({ ...filter, actor: texts.actor.trim(), target: texts.target.trim(), ...change });

  const text = (field: 'actor' | 'target', label: string, maxLength: number) => (
    <TextFilter
      id={`al-${field}`}
      label={label}
      value={texts[field]}
      maxLength={maxLength}
      onChange={(value) => type(field, value)}
    />
  );

  const select = (field: 'action' | 'target_kind' | 'outcome', label: string, options: SelectOption[]) => (
    <div className="vx-field">
      <SearchSelect
        label={label}
        options={options}
        value={filter[field]}
        onChange={(value) => apply({ [field]: value ?? '' })}
      />
    </div>
  );

  return (
    <FiltersForm
      onApply={() => apply()}
      canClear={isFiltered(filter) || anyText}
      onClear={() => {
        clear();
        onApply(NO_FILTER);
      }}
      typed={texts.actor.trim() !== filter.actor || texts.target.trim() !== filter.target}
    >
      {text('actor', 'Actor', MAX_AUDIT_ACTOR_LENGTH)}
      {select('action', 'Action', ACTIONS)}
      {select('target_kind', 'Target kind', TARGET_KINDS)}
      {text('target', 'Target', MAX_AUDIT_TARGET_LENGTH)}
      {select('outcome', 'Outcome', OUTCOMES)}
      <DayFilter id="al-from" label="From" value={filter.from} max={filter.to} onChange={(from) => apply({ from })} />
      <DayFilter id="al-to" label="To" value={filter.to} min={filter.from} onChange={(to) => apply({ to })} />
    </FiltersForm>
  );
}
