// Codes picked by checkboxes, each shown by its label and its code: the key form's scopes, the
// endpoint form's events. The group's fault shows under it and describes it; the cursor goes to its
// first checkbox (@veritas/shared/field-faults).
import type { FieldFaults } from '@veritas/shared/field-faults';

export interface CodeChoicesProps<Code extends string, Field extends string> {
  faults: FieldFaults<Field>;
  field: Field;
  legend: string;
  codes: readonly Code[];
  labels: Record<Code, string>;
  chosen: ReadonlySet<Code>;
  onChange(chosen: ReadonlySet<Code>): void;
  className?: string;
}

export function CodeChoices<Code extends string, Field extends string>({
  faults,
  field,
  legend,
  codes,
  labels,
  chosen,
  onChange,
  className,
}: CodeChoicesProps<Code, Field>) {
  function toggle(code: Code, on: boolean) {
    const next = new Set(chosen);
    if (on) next.add(code);
    else next.delete(code);
    onChange(next);
  }

  return (
    <fieldset
      className={className ? `ig-scopes ${className}` : 'ig-scopes'}
      aria-describedby={faults.describedBy(field)}
    >
      <legend className="vx-label">{legend}</legend>
      {codes.map((code, index) => (
        <label key={code} className="ig-scope">
          <input
            ref={index === 0 ? faults.inputRef(field) : undefined}
            type="checkbox"
            value={code}
            checked={chosen.has(code)}
            aria-invalid={faults.invalid(field)}
            onChange={(event) => toggle(code, event.target.checked)}
          />{' '}
          {labels[code]} <code className="ig-code">{code}</code>
        </label>
      ))}
      {faults.fieldError(field)}
    </fieldset>
  );
}
