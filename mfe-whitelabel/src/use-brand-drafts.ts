// The unsaved manufacturer lists of the White Label page, kept per brand while its card is closed,
// until saved or cancelled (docs/screens.md#white-labeled-brands).
import type { Brand } from '@veritas/shared';
import { useCallback, useState } from 'react';
import { sameList } from './manufacturer-list';

export function useBrandDrafts() {
  const [drafts, setDrafts] = useState<ReadonlyMap<number, string[]>>(new Map());

  /** A list edited back to the saved one is no draft. */
  const setDraft = useCallback((brand: Brand, list: string[]) => {
    setDrafts((current) => {
      const next = new Map(current);
      if (sameList(list, brand.white_labeled_brands.data)) next.delete(brand.id);
      else next.set(brand.id, list);
      return next;
    });
  }, []);

  const markSaved = useCallback((brand: Brand) => {
    setDrafts((current) => {
      const next = new Map(current);
      next.delete(brand.id);
      return next;
    });
  }, []);

  return { drafts, setDraft, markSaved };
}
