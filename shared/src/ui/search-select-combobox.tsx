// SearchSelect's implementation on downshift's combobox (ARIA 1.2 pattern).
import { useCombobox } from 'downshift';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { SearchSelectProps, SelectOption } from './search-select';
import './search-select.css';

/** The options whose label holds the text typed, ignoring case; all of them for no text. */
function matching(options: readonly SelectOption[], typed: string): SelectOption[] {
  const needle = typed.trim().toLowerCase();
  return needle ? options.filter((o) => o.label.toLowerCase().includes(needle)) : [...options];
}

export default function SearchSelectCombobox({
  options,
  value,
  onChange,
  placeholder,
  clearable = false,
  label,
  ariaLabel,
  maxMenuHeight = 300,
  minMenuHeight = 140,
  pageSize = 5,
  loading = false,
  disabled = false,
  className,
  onInputChange,
  filterOptions = true,
}: SearchSelectProps) {
  const id = useId();
  // Without a visible label, the control and its list are named directly.
  const nameProps: { 'aria-label'?: string } = label ? {} : { 'aria-label': ariaLabel ?? placeholder };
  const rootRef = useRef<HTMLDivElement>(null);
  // Only what the user typed filters; the selected label shown in the input does not.
  const [filter, setFilter] = useState('');
  const [openUpwards, setOpenUpwards] = useState(false);

  const selectedItem = useMemo(() => options.find((o) => o.value === value) ?? null, [options, value]);
  const items = useMemo(
    () => (filterOptions ? matching(options, filter) : [...options]),
    [options, filter, filterOptions],
  );

  const {
    isOpen,
    highlightedIndex,
    getLabelProps,
    getInputProps,
    getToggleButtonProps,
    getMenuProps,
    getItemProps,
    inputValue,
    selectItem,
    setHighlightedIndex,
    setInputValue,
  } = useCombobox<SelectOption>({
    id,
    items,
    selectedItem,
    itemToString: (item) => item?.label ?? '',
    itemToKey: (item) => item?.value,
    onSelectedItemChange: ({ selectedItem: item }) => onChange(item?.value ?? null),
    onInputValueChange: ({ inputValue, type }) => {
      // Typed text filters from the input's onChange (below); any other change of the text ends it.
      if (type !== useCombobox.stateChangeTypes.InputChange) return setFilter('');
      onInputChange?.(inputValue ?? '');
      if (!filterOptions && selectedItem) onChange(null);
    },
    stateReducer: (state, { type, changes }) => {
      const { ControlledPropUpdatedSelectedItem, InputChange, InputKeyDownPageDown, InputKeyDownPageUp } =
        useCombobox.stateChangeTypes;
      // Typing highlights the first option left, so that Enter (or Tab) takes it, as react-select
      // does; text that leaves none, or no text, highlights nothing.
      if (type === InputChange && filterOptions) {
        const typed = changes.inputValue ?? '';
        return { ...changes, highlightedIndex: typed.trim() && matching(options, typed).length ? 0 : -1 };
      }
      // A selection cleared while the menu is open was cleared by typing (above): the typed text stays.
      if (type === ControlledPropUpdatedSelectedItem && !filterOptions && state.isOpen) {
        return { ...changes, inputValue: state.inputValue };
      }
      // Page Down / Page Up move `pageSize` options (downshift moves 10), stopping at the ends.
      const last = items.length - 1;
      if (type === InputKeyDownPageDown) {
        return { ...changes, highlightedIndex: Math.min(last, Math.max(state.highlightedIndex, -1) + pageSize) };
      }
      if (type === InputKeyDownPageUp) {
        const from = state.highlightedIndex < 0 ? items.length : state.highlightedIndex;
        return { ...changes, highlightedIndex: Math.max(0, Math.min(last, from - pageSize)) };
      }
      return changes;
    },
    onIsOpenChange: ({ isOpen: open }) => {
      if (!open) {
        setFilter('');
        return;
      }
      const rect = rootRef.current?.getBoundingClientRect();
      if (rect) {
        const below = window.innerHeight - rect.bottom;
        setOpenUpwards(below < minMenuHeight && rect.top > below);
      }
    },
  });

  // Searched by the server (filterOptions false), the options for the text typed come after the
  // typing: once they are in, the first is highlighted, as typing highlights the first one left in
  // a list of its own, so that Enter (or Tab) takes it. Once per answer: the user's own moves
  // between its options are theirs.
  const highlightedAnswer = useRef<readonly SelectOption[] | null>(null);
  useEffect(() => {
    if (filterOptions || loading || !isOpen || highlightedAnswer.current === options) return;
    highlightedAnswer.current = options;
    if (inputValue.trim() && items.length > 0 && highlightedIndex < 0) setHighlightedIndex(0);
  }, [filterOptions, loading, isOpen, options, inputValue, items.length, highlightedIndex, setHighlightedIndex]);

  // downshift shows a new `value` by comparing it with its own record of the selection, which a
  // menu event handled in the same render as the parent's update overwrites (the input then kept
  // the label of a selection the parent had cleared); so the input follows `value` here as well.
  const selectedKey = selectedItem?.value;
  const shownKey = useRef(selectedKey);
  useEffect(() => {
    if (shownKey.current === selectedKey) return;
    shownKey.current = selectedKey;
    if (selectedItem === null && isOpen && !filterOptions) return; // cleared by typing
    setInputValue(selectedItem?.label ?? '');
  }, [selectedKey, selectedItem, isOpen, filterOptions, setInputValue]);

  return (
    <div ref={rootRef} className={['vx-search-select', className].filter(Boolean).join(' ')}>
      {label && (
        <label className="vx-search-select__label" {...getLabelProps()}>
          {label}
        </label>
      )}
      <div className="vx-search-select__control" data-disabled={disabled || undefined}>
        <input
          className="vx-search-select__input"
          placeholder={placeholder}
          aria-busy={loading || undefined}
          {...getInputProps({
            disabled,
            ...nameProps,
            // The options follow the text in the render of the keystroke itself: downshift reports
            // it (onInputValueChange) only from an effect after that render, and an Enter pressed in
            // between would take the first option of the text before.
            onChange: (event) => filterOptions && setFilter(event.currentTarget.value),
            // A click into the selection's label selects it, as Tab does, so that typing replaces
            // it rather than running on from it ('Any reasonE008', which matches nothing).
            onClick: (event) => {
              const input = event.currentTarget;
              if (selectedItem && input.value === selectedItem.label) input.select();
            },
          })}
        />
        {clearable && selectedItem && !disabled && (
          <button
            type="button"
            className="vx-search-select__clear"
            aria-label={`Clear ${label ?? ariaLabel ?? 'selection'}`}
            onClick={() => selectItem(null)}
          >
            ×
          </button>
        )}
        <button
          type="button"
          className="vx-search-select__toggle"
          aria-label={`Show options${label || ariaLabel ? ` for ${label ?? ariaLabel}` : ''}`}
          {...getToggleButtonProps({ disabled })}
        >
          ▾
        </button>
      </div>
      <ul
        className="vx-search-select__menu"
        data-placement={openUpwards ? 'top' : 'bottom'}
        style={{ maxHeight: maxMenuHeight }}
        hidden={!isOpen}
        {...getMenuProps(nameProps)}
      >
        {isOpen && loading && <li className="vx-search-select__note">Loading...</li>}
        {isOpen && !loading && items.length === 0 && <li className="vx-search-select__note">No options</li>}
        {isOpen &&
          !loading &&
          items.map((item, index) => (
            <li
              key={item.value}
              className="vx-search-select__option"
              data-highlighted={highlightedIndex === index || undefined}
              data-selected={selectedItem?.value === item.value || undefined}
              {...getItemProps({ item, index })}
            >
              {item.label}
            </li>
          ))}
      </ul>
    </div>
  );
}
