// How the console's forms show their fields' faults (the Integrations page's key and endpoint
// forms, the Deployments page's token and origin forms): a form is checked against its call's own
// schema before it is sent, so it says what the server would; each fault shows under its field and
// describes it, the cursor goes to the first field to correct, and a refusal of the server shows on
// the field it names or, naming none, under the form's button. `FormField` lays a field out: its
// label, its input, a hint and its fault, tied together by ids. An entry of its own
// (@veritas/shared/field-faults), not the index: it brings TypeBox's checker, which the shell's
// first load does without.
import { formFaults } from './api/form-check';
import { refusedField, serverMessage } from './http';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

type Schema = Parameters<typeof formFaults>[0];

export function useFieldFaults<Field extends string>(fields: readonly Field[]) {
  const id = useId();
  const [faults, setFaults] = useState<ReadonlyMap<Field, string>>(new Map());
  const [formError, setFormError] = useState<string | null>(null);
  // The field to put the cursor in once its fault is shown (and describes it).
  const [toCorrect, setToCorrect] = useState<{ field: Field } | null>(null);
  const inputs = useRef(new Map<Field, HTMLElement | null>());

  useEffect(() => {
    if (toCorrect) inputs.current.get(toCorrect.field)?.focus();
  }, [toCorrect]);

  const errorId = (field: Field) => `${id}-${field}-error`;
  /** Shows each field's fault, and puts the cursor in the first field to correct. */
  function fail(found: ReadonlyMap<Field, string>) {
    setFaults(found);
    const [first] = fields.filter((field) => found.has(field));
    if (first) setToCorrect({ field: first });
  }

  /** Shows `found` (a schema's faults, some reworded by the form): false when there is one. */
  function passes(found: ReadonlyMap<Field, string>): boolean {
    setFormError(null);
    if (found.size > 0) {
      fail(found);
      return false;
    }
    setFaults(new Map());
    return true;
  }

  return {
    /** The form's own id, for the ids of its inputs and hints. */
    id,
    formError,
    /** Checks `payload` against its call's schema: false, the faults shown, when it fails. */
    check: (schema: Schema, payload: Record<string, unknown>) =>
      passes(formFaults(schema, payload) as Map<Field, string>),
    passes,
    /** A refused call: its message on the field it names, or under the button; `fallback` without one. */
    refused(failure: unknown, fallback: string) {
      const message = serverMessage(failure) ?? fallback;
      const field = refusedField(failure);
      if (fields.includes(field as Field)) fail(new Map([[field as Field, message]]));
      else setFormError(message);
    },
    /** The ref of the input the cursor goes to when `field` is to be corrected. */
    inputRef: (field: Field) => (input: HTMLElement | null) => {
      inputs.current.set(field, input);
    },
    invalid: (field: Field) => faults.has(field) || undefined,
    describedBy: (field: Field, ...others: string[]) =>
      [...others, faults.has(field) ? errorId(field) : ''].filter(Boolean).join(' ') || undefined,
    fieldError: (field: Field) =>
      faults.has(field) && (
        <p id={errorId(field)} className="vx-error-text vx-field-error">
          {faults.get(field)}
        </p>
      ),
  };
}

/** What useFieldFaults gives a form. */
export type FieldFaults<Field extends string> = ReturnType<typeof useFieldFaults<Field>>;

/** What ties a field's input to its label, its hint and its fault, and lets the cursor be put in it. */
export interface FieldInputProps {
  id: string;
  ref: (input: HTMLElement | null) => void;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

export interface FormFieldProps<Field extends string> {
  faults: FieldFaults<Field>;
  field: Field;
  label: ReactNode;
  /** A rule or example shown under the input, which describes it. */
  hint?: ReactNode;
  className?: string;
  /** The input (or select), given the props that tie it to the rest: spread them on it. */
  input: (props: FieldInputProps) => ReactNode;
}

/** A labelled field of a form that shows its faults with useFieldFaults: label, input, hint, fault. */
export function FormField<Field extends string>({
  faults,
  field,
  label,
  hint,
  className,
  input,
}: FormFieldProps<Field>) {
  const inputId = `${faults.id}-${field}`;
  const hintId = `${inputId}-hint`;
  return (
    <div className={className ? `vx-field ${className}` : 'vx-field'}>
      <label className="vx-label" htmlFor={inputId}>
        {label}
      </label>
      {input({
        id: inputId,
        ref: faults.inputRef(field),
        'aria-invalid': faults.invalid(field),
        'aria-describedby': hint ? faults.describedBy(field, hintId) : faults.describedBy(field),
      })}
      {hint && (
        <p id={hintId} className="vx-hint">
          {hint}
        </p>
      )}
      {faults.fieldError(field)}
    </div>
  );
}
