// The one dropdown of the console: a searchable, keyboard-operable select built on
// downshift's combobox, so every remote's dropdowns behave alike. The implementation is
// loaded on first use, so pages without a dropdown (the login page above all) don't carry it.
import { lazy, Suspense } from 'react';

const SearchSelectCombobox = lazy(() => import('./search-select-combobox'));

export interface SelectOption {
  value: string;
  label: string;
}

export interface SearchSelectProps {
  options: readonly SelectOption[];
  value: string | null;
  onChange: (value: string | null) => void;
  placeholder?: string;
  /** Shows a clear button while a value is selected. */
  clearable?: boolean;
  /** Visible label; without it, ariaLabel names the control. */
  label?: string;
  ariaLabel?: string;
  /** docs/screens.md#dropdowns: at most 300 px high by default. */
  maxMenuHeight?: number;
  /** Below this much room under the control, the menu opens upwards (140 px by default). */
  minMenuHeight?: number;
  /** How many options Page Down and Page Up move the highlight by (5 by default). */
  pageSize?: number;
  loading?: boolean;
  disabled?: boolean;
  className?: string;
  /** Called with the text as the user types it (e.g. to search on the server). */
  onInputChange?: (text: string) => void;
  /**
   * true (default): typing filters `options` here. false: `options` are already what the typed
   * text found (server-side search) and are shown as given; typing then also clears the
   * selection, whose option the answer to the new text replaces.
   */
  filterOptions?: boolean;
}

export function SearchSelect(props: SearchSelectProps) {
  // Busy while the combobox's code loads: it replaces this input when it arrives.
  const fallback = (
    <input
      className="vx-input"
      disabled
      aria-busy="true"
      placeholder={props.placeholder}
      aria-label={props.label ?? props.ariaLabel ?? props.placeholder}
    />
  );
  return (
    <Suspense fallback={fallback}>
      <SearchSelectCombobox {...props} />
    </Suspense>
  );
}
