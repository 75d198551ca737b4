// The editor of one brand (docs/screens.md#white-labeled-brands): find a manufacturer by searching the registry, add
// it, remove others; the list is edited locally and saved with 'Update Changes DB'.
import { BusyButton, SearchSelect, toast, type Brand } from '@veritas/shared';
import { useEffect, useMemo, useRef, useState } from 'react';
import { manufacturersQuery, useSaveBrand } from './api/brands';
import { addManufacturer, removeManufacturer, sameList, type ListEdit } from './manufacturer-list';
import { MESSAGES, errorText } from './messages';
import { useDebouncedSearch } from './use-debounced-search';

export interface BrandEditorProps {
  brand: Brand;
  /** The list as edited here: the saved one until something changes. */
  list: readonly string[];
  onChange: (list: string[]) => void;
  /** After the server stored the list (the brands loaded already show it). */
  onSaved: () => void;
}

export function BrandEditor({ brand, list, onChange, onSaved }: BrandEditorProps) {
  const dirty = !sameList(list, brand.white_labeled_brands.data);
  const [selected, setSelected] = useState<string | null>(null);
  const save = useSaveBrand();
  // The keyboard focus never drops to the page when the control holding it goes: after a removal,
  // the remove button now at that place, else the one before it; else Add Manufacturer.
  const addButton = useRef<HTMLButtonElement>(null);
  const removeButtons = useRef<(HTMLButtonElement | null)[]>([]);
  const removedAt = useRef<number | null>(null);
  useEffect(() => {
    if (removedAt.current === null) return;
    const at = Math.min(removedAt.current, list.length - 1);
    removedAt.current = null;
    (removeButtons.current[at] ?? addButton.current)?.focus();
  }, [list]);

  const { results, loading, search } = useDebouncedSearch(manufacturersQuery, (error) =>
    toast.error(errorText(error, MESSAGES.manufacturersFetchFailed)),
  );
  const options = useMemo(() => results.map((m) => ({ value: m.manufacturer, label: m.manufacturer })), [results]);

  // Offers the first manufacturers before anything is typed.
  useEffect(() => search(''), [search]);

  function apply(edit: ListEdit): boolean {
    if ('error' in edit) {
      toast.error(edit.error);
      return false;
    }
    onChange(edit.list);
    toast.success(edit.message);
    return true;
  }

  function add() {
    if (!apply(addManufacturer(list, selected))) return;
    setSelected(null);
    search('');
  }

  async function update() {
    try {
      await save.mutateAsync({ brand, list: [...list] });
      toast.success(MESSAGES.brandUpdated);
      // Cancel and Update go with the changes.
      addButton.current?.focus();
      onSaved();
    } catch (error) {
      toast.error(errorText(error, MESSAGES.brandUpdateFailed));
    }
  }

  return (
    <div className="wl-editor">
      <div className="wl-editor__add">
        <SearchSelect
          className="wl-editor__search"
          ariaLabel="Search manufacturers"
          placeholder="Search manufacturers..."
          options={options}
          value={selected}
          onChange={setSelected}
          onInputChange={search}
          filterOptions={false}
          loading={loading}
        />
        <button ref={addButton} type="button" className="vx-btn vx-btn-primary" onClick={add}>
          Add Manufacturer
        </button>
      </div>

      {list.length === 0 ? (
        <p className="wl-editor__empty vx-muted">No white-labels added</p>
      ) : (
        <ul className="wl-editor__list" aria-label={`Manufacturers of ${brand.brand}`}>
          {list.map((name, index) => (
            <li key={name} className="wl-editor__item">
              <span>{name}</span>
              <button
                type="button"
                className="vx-btn vx-btn-icon wl-editor__remove"
                aria-label={`Remove ${name}`}
                ref={(button) => {
                  removeButtons.current[index] = button;
                }}
                onClick={() => {
                  if (apply(removeManufacturer(list, index))) removedAt.current = index;
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}

      {dirty && (
        <div className="wl-editor__actions">
          <BusyButton
            className="vx-btn"
            busy={save.isPending}
            onClick={() => {
              addButton.current?.focus();
              onChange([...brand.white_labeled_brands.data]);
            }}
          >
            Cancel
          </BusyButton>
          <BusyButton className="vx-btn vx-btn-primary" busy={save.isPending} onClick={() => void update()}>
            Update Changes DB
          </BusyButton>
        </div>
      )}
    </div>
  );
}
