// The Cases queue's selection for its bulk actions: the cases ticked, or every case matching the
// filters. A change of filters starts again with none ticked.
import type { CaseSummary } from '@veritas/shared';
import { useState } from 'react';
import type { Selection } from './case-table';

/** The queue's selection: the cases ticked, or every case matching the filters. */
export interface CaseSelection extends Selection {
  allMatching: boolean;
  /** The cases ticked (every row shown while all matching are selected). */
  ids: readonly number[];
  selectAllMatching(): void;
  clear(): void;
}

const NONE: ReadonlySet<number> = new Set();

/** The selection of the rows shown under the filters `key`: other filters start with none. */
export function useCaseSelection(key: string, rows: readonly CaseSummary[]): CaseSelection {
  const [state, setState] = useState({ key, ticked: NONE, allMatching: false });
  const current = state.key === key ? state : { key, ticked: NONE, allMatching: false };
  const shown = rows.map((row) => row.id);
  const selected = current.allMatching ? new Set(shown) : current.ticked;
  const set = (ticked: ReadonlySet<number>, allMatching = false) => setState({ key, ticked, allMatching });
  return {
    selected,
    allMatching: current.allMatching,
    ids: [...selected],
    toggle(id) {
      const ticked = new Set(selected);
      if (!ticked.delete(id)) ticked.add(id);
      set(ticked);
    },
    toggleAll() {
      const all = shown.length > 0 && shown.every((id) => selected.has(id));
      const ticked = new Set(selected);
      for (const id of shown) {
        if (all) ticked.delete(id);
        else ticked.add(id);
      }
      set(ticked);
    },
    selectAllMatching: () => set(selected, true),
    clear: () => set(NONE),
  };
}
