import type { MenuCommand, MenuItem } from '@veritas/shared';
import { useEffect, useId, useRef, useState } from 'react';
import { NavLink } from 'react-router-dom';

interface MenuDropdownProps {
  label: string;
  items: MenuItem[];
  /** Runs the command of an item without a route. */
  onCommand(command: MenuCommand): void;
  /** Called after any item was chosen (closes the mobile menu). */
  onChoose(): void;
}

/** A disclosure menu of the top bar: a button with aria-expanded; closes on outside click, Escape or choice. */
export function MenuDropdown({ label, items, onCommand, onChoose }: MenuDropdownProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const listId = useId();

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('pointerdown', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  if (items.length === 0) return null;

  const choose = () => {
    setOpen(false);
    onChoose();
  };

  return (
    <div className="shell-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="shell-menu-button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((wasOpen) => !wasOpen)}
      >
        {label}
        <span aria-hidden="true" className="shell-caret" />
      </button>
      <ul id={listId} className="shell-menu-list" hidden={!open}>
        {items.map((item) => (
          <li key={item.label}>
            {'route' in item ? (
              <NavLink to={`/${item.route}`} className="shell-menu-item" onClick={choose}>
                {item.label}
              </NavLink>
            ) : (
              <button
                type="button"
                className="shell-menu-item"
                onClick={() => {
                  choose();
                  onCommand(item.action);
                }}
              >
                {item.label}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
