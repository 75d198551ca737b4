import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> {
  label: string;
  /** Shown next to the input (e.g. a show/hide button). */
  addon?: (inputId: string) => ReactNode;
  /** A rule shown under the input, which describes it. */
  hint?: string;
}

/** A labelled input of the users' forms. */
export function TextField({ label, addon, hint, ...inputProps }: TextFieldProps) {
  const id = useId();
  const input = (
    <input id={id} className="vx-input" aria-describedby={hint ? `${id}-hint` : undefined} {...inputProps} />
  );
  return (
    <div className="vx-field">
      <label className="vx-label" htmlFor={id}>
        {label}
      </label>
      {addon ? (
        <div className="vx-input-group">
          {input}
          {addon(id)}
        </div>
      ) : (
        input
      )}
      {hint && (
        <p id={`${id}-hint`} className="vx-hint">
          {hint}
        </p>
      )}
    </div>
  );
}
