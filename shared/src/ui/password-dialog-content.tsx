// PasswordDialog's implementation (loaded on first use): the fields, the rule under them, the
// checks before sending, the server's answer, and where focus goes after each.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { refusedField, serverMessage } from '../http';
import { PASSWORD_RULE, passwordProblem } from '../password-rule';
import { BusyButton } from './busy-button';
import { Modal } from './modal';
import type { PasswordDialogProps } from './password-dialog';
import './password-dialog.css';

type Field = 'current' | 'password' | 'confirm';

/** The fields the server names in a 400 answer, as this form calls them. */
const SERVER_FIELDS: Record<string, Field> = { current_password: 'current', new_password: 'password' };

function serverField(error: unknown): Field | undefined {
  const field = refusedField(error);
  return field === undefined ? undefined : SERVER_FIELDS[field];
}

export default function PasswordDialogContent({
  title,
  username,
  askCurrent = false,
  submitLabel,
  onSubmit,
  failedText,
  done,
  onClose,
}: PasswordDialogProps) {
  const id = useId();
  const [values, setValues] = useState<Record<Field, string>>({ current: '', password: '', confirm: '' });
  const [shown, setShown] = useState(false);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<{ field: Field; text: string } | null>(null);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  const doneRef = useRef<HTMLButtonElement>(null);
  const firstField: Field = askCurrent ? 'current' : 'password';

  // The form is replaced by the outcome: its Done button takes the focus the form had.
  useEffect(() => {
    if (done) doneRef.current?.focus();
  }, [done]);

  /** Shows the problem and puts the cursor in the field to correct. */
  function fail(field: Field, text: string) {
    setProblem({ field, text });
    inputs.current[field]?.focus();
  }

  function check(): { field: Field; text: string } | null {
    if (askCurrent && !values.current) return { field: 'current', text: 'Enter your current password' };
    if (!values.password) return { field: 'password', text: 'Enter a new password' };
    const weakness = passwordProblem(values.password, username);
    if (weakness) return { field: 'password', text: weakness };
    if (values.confirm !== values.password) return { field: 'confirm', text: 'The new passwords do not match' };
    return null;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const found = check();
    if (found) return fail(found.field, found.text);
    setProblem(null);
    setSending(true);
    try {
      await onSubmit({ current: askCurrent ? values.current : '', password: values.password });
    } catch (error) {
      fail(serverField(error) ?? firstField, serverMessage(error, ['error', 'detail']) ?? failedText);
    } finally {
      setSending(false);
    }
  }

  const errorId = `${id}-error`;
  const input = (field: Field, label: string, autoComplete: string, hint?: string) => {
    const invalid = problem?.field === field;
    const hintId = `${id}-${field}-hint`;
    return (
      <div className="vx-field">
        <label className="vx-label" htmlFor={`${id}-${field}`}>
          {label}
        </label>
        <input
          ref={(element) => {
            inputs.current[field] = element;
          }}
          id={`${id}-${field}`}
          className="vx-input"
          type={shown ? 'text' : 'password'}
          autoComplete={autoComplete}
          value={values[field]}
          onChange={(e) => setValues((current) => ({ ...current, [field]: e.target.value }))}
          aria-invalid={invalid || undefined}
          aria-describedby={[hint && hintId, invalid && errorId].filter(Boolean).join(' ') || undefined}
          data-autofocus={field === firstField || undefined}
        />
        {hint && (
          <p id={hintId} className="vx-hint">
            {hint}
          </p>
        )}
      </div>
    );
  };

  return (
    <Modal open title={title} onClose={onClose} className="vx-password-dialog">
      {done ? (
        <>
          <p id={`${id}-done`} className="vx-password-dialog__done" role="status">
            {done}
          </p>
          <div className="vx-password-dialog__actions">
            <button
              ref={doneRef}
              type="button"
              className="vx-btn vx-btn-primary"
              aria-describedby={`${id}-done`}
              onClick={onClose}
            >
              Done
            </button>
          </div>
        </>
      ) : (
        <form noValidate aria-label={title} onSubmit={submit}>
          {/* Tells password managers whose password this is. */}
          <input type="text" hidden readOnly autoComplete="username" value={username} />
          {askCurrent && input('current', 'Current password', 'current-password')}
          {input('password', 'New password', 'new-password', PASSWORD_RULE)}
          {input('confirm', 'Confirm new password', 'new-password')}
          <label className="vx-password-dialog__show">
            <input type="checkbox" checked={shown} onChange={(e) => setShown(e.target.checked)} /> Show passwords
          </label>
          <p id={errorId} className="vx-error-text" role="alert">
            {problem?.text}
          </p>
          <div className="vx-password-dialog__actions">
            <button type="button" className="vx-btn" onClick={onClose}>
              Cancel
            </button>
            <BusyButton type="submit" className="vx-btn vx-btn-primary" busy={sending}>
              {submitLabel}
            </BusyButton>
          </div>
        </form>
      )}
    </Modal>
  );
}
