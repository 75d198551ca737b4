// The form that adds a brand on the White Label page (docs/screens.md#white-labeled-brands): a name
// not empty once trimmed, and not one the list has in any case.
import { BusyButton, toast, type Brand } from '@veritas/shared';
import { BRAND_MESSAGES, brandKey, MAX_BRAND_LENGTH } from '@veritas/shared/domain';
import { useQueryClient } from '@veritas/shared/query';
import { useState, type FormEvent } from 'react';
import { brandsQuery, useAddBrand } from './api/brands';
import { MESSAGES, errorText } from './messages';

export interface AddBrandFormProps {
  brands: readonly Brand[];
  /** The brand just added, as the list fetched again holds it. */
  onAdded(brand: Brand): void;
}

export function AddBrandForm({ brands, onAdded }: AddBrandFormProps) {
  const client = useQueryClient();
  const add = useAddBrand();
  const [newBrand, setNewBrand] = useState('');

  async function addBrand(event: FormEvent) {
    event.preventDefault();
    if (add.isPending) return;
    const name = newBrand.trim();
    if (!name) {
      toast.error(BRAND_MESSAGES.missing);
      return;
    }
    if (brands.some((b) => brandKey(b.brand) === brandKey(name))) {
      toast.error(BRAND_MESSAGES.exists);
      return;
    }
    try {
      await add.mutateAsync(name);
    } catch (error) {
      toast.error(errorText(error, MESSAGES.brandAddFailed));
      return;
    }
    toast.success(MESSAGES.brandAdded);
    setNewBrand('');
    const created = client.getQueryData(brandsQuery.queryKey)?.find((b) => brandKey(b.brand) === brandKey(name));
    if (created) onAdded(created);
  }

  return (
    <form className="wl-new-brand" aria-label="Add Brand" onSubmit={(event) => void addBrand(event)}>
      <label className="vx-sr-only" htmlFor="wl-new-brand-name">
        New brand name
      </label>
      <input
        id="wl-new-brand-name"
        className="vx-input"
        placeholder="New brand name"
        maxLength={MAX_BRAND_LENGTH}
        value={newBrand}
        onChange={(event) => setNewBrand(event.target.value)}
      />
      <BusyButton type="submit" className="vx-btn vx-btn-primary" busy={add.isPending}>
        Add Brand
      </BusyButton>
    </form>
  );
}
