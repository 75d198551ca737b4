import type { ComposedMenuEntry } from '@veritas/shared';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { NavLink } from '@veritas/shared';

interface MenuDropdownProps {
  label: string;
  /** The composition's entries of this menu, in display order. */
  entries: ComposedMenuEntry[];
  /** Runs the command of an entry that opens no page. */
  onCommand(entry: ComposedMenuEntry): void;
  /** Called after any item was chosen (closes the mobile menu); `command` when it opened no page. */
  onChoose(command: boolean): void;
}

/**
 * A menu button of the top bar (WAI-ARIA menu button pattern): opening moves focus to the first
 * item (ArrowUp on the button opens on the last, ArrowDown on the first), arrows/Home/End move
 * between items, Escape closes and returns focus, as does choosing a command (it opens no page to
 * take the focus); a click outside closes.
 */
export function MenuDropdown({ label, entries, onCommand, onChoose }: MenuDropdownProps) {
  const [open, setOpen] = useState(false);
  // The item that takes the focus when the menu opens.
  const openOn = useRef<'first' | 'last'>('first');
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const id = useId();
  const menuItems = () => [...(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (!open) return;
    const items = menuItems();
    items[openOn.current === 'last' ? items.length - 1 : 0]?.focus();
    const closeOutside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: globalThis.KeyboardEvent) => {
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

  if (entries.length === 0) return null;

  function moveFocus(event: KeyboardEvent<HTMLUListElement>) {
    const all = menuItems();
    const current = all.indexOf(document.activeElement as HTMLElement);
    const targets: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      Home: 0,
      End: all.length - 1,
    };
    if (event.key === 'Tab') setOpen(false);
    const target = targets[event.key];
    if (target === undefined) return;
    event.preventDefault();
    all[(target + all.length) % all.length]?.focus();
  }

  const choose = (command: boolean) => {
    setOpen(false);
    if (command) button.current?.focus();
    onChoose(command);
  };

  return (
    <div className="shell-menu" ref={root}>
      <button
        ref={button}
        id={`${id}-button`}
        type="button"
        className="shell-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={`${id}-menu`}
        onClick={() => {
          openOn.current = 'first';
          setOpen((wasOpen) => !wasOpen);
        }}
        onKeyDown={(event) => {
          if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
          event.preventDefault();
          openOn.current = event.key === 'ArrowUp' ? 'last' : 'first';
          setOpen(true);
        }}
      >
        {label}
        <span aria-hidden="true" className="shell-caret" />
      </button>
      <ul
        ref={list}
        id={`${id}-menu`}
        role="menu"
        aria-labelledby={`${id}-button`}
        className="shell-menu-list"
        hidden={!open}
        onKeyDown={moveFocus}
      >
        {entries.map((entry) => (
          <li key={`${entry.remote} ${entry.label}`} role="none">
            {entry.page !== undefined ? (
              <NavLink to={`/${entry.page}`} role="menuitem" className="shell-menu-item" onClick={() => choose(false)}>
                {entry.label}
              </NavLink>
            ) : (
              <button
                type="button"
                role="menuitem"
                className="shell-menu-item"
                onClick={() => {
                  choose(true);
                  onCommand(entry);
                }}
              >
                {entry.label}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
