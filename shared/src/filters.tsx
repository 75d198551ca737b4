// Entry point @veritas/shared/filters: the filters form over a list whose applied filters are the
// URL's (the Audit Log, the Cases queue; docs/screens.md#filters). Text boxes apply on Apply (or
// Enter), the dropdowns and the days as soon as they change (a day once whole), with the text typed so far;
// what is typed but not applied is the form's own. Not part of the main entry, which the shell
// loads before its login form.
import { useRef, useState, type ReactNode } from 'react';
import './ui/filters.css';

/** A URL's filter value if it is one of `values`, the page's choices; else '' ("any"). */
export const choiceOrAny = <T extends string>(values: readonly T[], value: string | null | undefined): T | '' =>
  values.includes(value as T) ? (value as T) : '';

/**
 * The text boxes of a filters form: `applied` are their applied values. Filters applied from
 * elsewhere (Clear filters, a saved view, the browser's Back) replace what was typed, and call
 * `onReplaced` (in the render, as React's derived state does).
 */
export function useTypedTexts<Field extends string>(applied: Record<Field, string>, onReplaced?: () => void) {
  const [texts, setTexts] = useState(applied);
  const [seen, setSeen] = useState(applied);
  const fields = Object.keys(applied) as Field[];
  if (fields.some((field) => seen[field] !== applied[field])) {
    setSeen(applied);
    setTexts(applied);
    onReplaced?.();
  }
  return {
    texts,
    type: (field: Field, value: string) => setTexts((current) => ({ ...current, [field]: value })),
    clear: () => setTexts(Object.fromEntries(fields.map((field) => [field, ''])) as Record<Field, string>),
    /** Some box holds text, applied or not. */
    anyText: fields.some((field) => texts[field] !== ''),
  };
}

export interface FiltersFormProps {
  /** Applies the filters with the text typed so far (Apply, or Enter in a box). */
  onApply(): void;
  /** Whether anything is applied or typed, which Clear filters takes away. */
  canClear: boolean;
  onClear(): void;
  /** Text typed and not applied: the form says Apply applies it. */
  typed: boolean;
  /** The fields, laid out on a grid. */
  children: ReactNode;
}

export function FiltersForm({ onApply, canClear, onClear, typed, children }: FiltersFormProps) {
  const fields = useRef<HTMLDivElement>(null);
  return (
    <form
      className="vx-card vx-filters"
      aria-label="Filters"
      onSubmit={(event) => {
        event.preventDefault();
        onApply();
      }}
    >
      <div className="vx-filters__fields" ref={fields}>
        {children}
      </div>
      <div className="vx-filters__actions">
        <button type="submit" className="vx-btn vx-btn-primary">
          Apply
        </button>
        <button
          type="button"
          className="vx-btn"
          disabled={!canClear}
          onClick={() => {
            onClear();
            // Cleared, the button is disabled and would drop the keyboard's focus to the page: it
            // goes to the first filter instead, where filtering starts again (docs/screens.md#filters);
            // a dropdown whose code is still loading stands disabled and is passed over.
            fields.current
              ?.querySelector<HTMLElement>('input:not(:disabled), select:not(:disabled), button:not(:disabled)')
              ?.focus();
          }}
        >
          Clear filters
        </button>
        {typed && <span className="vx-hint">Press Apply to filter by the text typed.</span>}
      </div>
    </form>
  );
}

export interface DayFilterProps {
  id: string;
  label: string;
  /** The day, YYYY-MM-DD, or empty. */
  value: string;
  /** The other end of the range, which bounds this one. */
  min?: string;
  max?: string;
  onChange(day: string): void;
}

/**
 * Whether a date field's value is a day to apply: none (the field emptied), or one whose year has
 * its four digits. Typed from the keyboard, a date field reports 0002-12-01 after the first digit
 * of the year, 0020-12-01 after the second...; applying those would filter by the year 2, and the
 * field, given that back, would lose the digits still to come.
 */
const isDayToApply = (day: string) => day === '' || day >= '1000';

/**
 * One end of a filters form's range of days, applied as it changes to a whole day or to none. What
 * the field shows is its own until then: a day still being typed, or left half typed (its value is
 * then empty, with `badInput`), applies nothing and keeps the keyboard's place; leaving the field
 * applies a whole day it shows. A day applied from elsewhere (Clear filters, a saved view, the
 * browser's Back) replaces it.
 */
export function DayFilter({ id, label, value, min, max, onChange }: DayFilterProps) {
  const [shown, setShown] = useState(value);
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setShown(value);
  }
  return (
    <div className="vx-field">
      <label className="vx-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="vx-input"
        type="date"
        value={shown}
        min={min || undefined}
        max={max || undefined}
        onChange={(event) => {
          const day = event.target.value;
          setShown(day);
          if (!event.target.validity.badInput && isDayToApply(day) && day !== value) onChange(day);
        }}
        // Left with a whole day of a year before 1000 in it, the field applies what it shows.
        onBlur={(event) => {
          if (!event.target.validity.badInput && shown !== value) onChange(shown);
        }}
      />
    </div>
  );
}

export interface TextFilterProps {
  id: string;
  label: string;
  value: string;
  maxLength: number;
  /** An example of what to type (e.g. 'Hub or RC code'). */
  placeholder?: string;
  onChange(text: string): void;
}

/** A filters form's text box (names and codes: no spelling check), applied with Apply. */
export function TextFilter({ id, label, value, maxLength, placeholder, onChange }: TextFilterProps) {
  return (
    <div className="vx-field">
      <label className="vx-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="vx-input"
        value={value}
        maxLength={maxLength}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
