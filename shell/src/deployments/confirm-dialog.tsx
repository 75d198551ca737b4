// The confirmation of a change on the Deployments page, in the shared modal dialog: it says exactly
// what will happen, runs the change on Confirm and closes on success; a refusal (e.g. the
// registry's 409 detail) is shown inside it, with its buttons usable again.
import { BusyButton, Modal, serverMessage } from '@veritas/shared';
import { useId, useState, type FormEvent, type ReactNode } from 'react';

export interface ConfirmDialogProps {
  title: string;
  /** What will happen, in a sentence or two. */
  message: ReactNode;
  confirmLabel: string;
  /** A change that takes something away: the confirm button is red. */
  danger?: boolean;
  /** Fields asked for before confirming (e.g. a canary's percentage), rendered above the buttons. */
  children?: ReactNode;
  /** Runs the change; a rejection keeps the dialog open with the server's message. */
  onConfirm(): Promise<unknown>;
  /** Checked before onConfirm: a message stops it. */
  validate?(): string | null;
  onClose(): void;
  /** Said when the change failed without a message of the server's. */
  failedText: string;
}

export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  danger = false,
  children,
  onConfirm,
  validate,
  onClose,
  failedText,
}: ConfirmDialogProps) {
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const messageId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (running) return;
    const invalid = validate?.() ?? null;
    if (invalid) return setError(invalid);
    setError(null);
    setRunning(true);
    try {
      await onConfirm();
    } catch (failure) {
      setError(serverMessage(failure, ['detail', 'error', 'message']) ?? failedText);
      setRunning(false);
      return;
    }
    setRunning(false);
    onClose();
  }

  return (
    <Modal open title={title} onClose={onClose}>
      <form className="dp-confirm" aria-describedby={messageId} noValidate onSubmit={(event) => void submit(event)}>
        <p id={messageId} className="dp-confirm__message">
          {message}
        </p>
        {children}
        {error && (
          <p className="vx-notice vx-notice--error" role="alert">
            {error}
          </p>
        )}
        <div className="dp-confirm__buttons">
          <button type="button" className="vx-btn" onClick={onClose} data-autofocus={children ? undefined : true}>
            Cancel
          </button>
          <BusyButton
            type="submit"
            className={`vx-btn ${danger ? 'vx-btn-danger' : 'vx-btn-primary'}`}
            busy={running}
            aria-busy={running || undefined}
          >
            {confirmLabel}
          </BusyButton>
        </div>
      </form>
    </Modal>
  );
}
