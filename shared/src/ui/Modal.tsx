// Accessible modal dialog: rendered over the page in a portal, focus moves in on open (to the
// element marked data-autofocus, else the close button) and back on close, Tab stays inside (and
// focus that lands outside returns); Escape, the close button and a backdrop click dismiss it.
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import './Modal.css';

export interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

export function Modal({ open, title, onClose, children, className }: ModalProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  // Read at event time so a parent re-rendering with a new onClose does not re-run the focus effect.
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    if (!open) return;
    const previouslyFocused = document.activeElement as HTMLElement | null;
    (dialogRef.current?.querySelector<HTMLElement>('[data-autofocus]') ?? closeRef.current)?.focus();
    // On the document, so Escape works wherever focus ended up (e.g. after a click on text).
    const onEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') onCloseRef.current();
    };
    // Focus that lands on the page behind (Tab after a click on the dialog's text, which leaves
    // focus on the page body) is brought back, so the keyboard stays in the dialog.
    const keepFocusInside = (event: FocusEvent) => {
      if (!dialogRef.current?.contains(event.target as Node)) closeRef.current?.focus();
    };
    document.addEventListener('keydown', onEscape);
    document.addEventListener('focusin', keepFocusInside);
    return () => {
      document.removeEventListener('keydown', onEscape);
      document.removeEventListener('focusin', keepFocusInside);
      previouslyFocused?.focus?.();
    };
  }, [open]);

  if (!open) return null;

  const trapTab = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = [...dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };

  return createPortal(
    <div className="vx-modal__backdrop" onMouseDown={(e) => e.target === e.currentTarget && onCloseRef.current()}>
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className={['vx-modal', className].filter(Boolean).join(' ')}
        onKeyDown={trapTab}
      >
        <header className="vx-modal__header">
          <h2 id={titleId} className="vx-modal__title">
            {title}
          </h2>
          <button ref={closeRef} type="button" className="vx-modal__close" aria-label="Close" onClick={() => onCloseRef.current()}>
            ×
          </button>
        </header>
        <div className="vx-modal__body">{children}</div>
      </div>
    </div>,
    document.body,
  );
}
