// White Labeled Brands (route WhiteLabel, docs/screens.md#white-labeled-brands): the brands, a filter, a form to
// add one (add-brand-form.tsx), and a collapsible editor card per brand (brand-card.tsx). One card is
// open at a time: it is the brand being edited. Unsaved lists are kept per brand while its card is
// closed, until saved or cancelled (use-brand-drafts.ts).
// Default export: the shell's page.
import { SearchSelect, toast, type Brand } from '@veritas/shared';
import { useQueryError, useQueryNow } from '@veritas/shared/query';
import { useState } from 'react';
import { AddBrandForm } from './add-brand-form';
import { brandsQuery } from './api/brands';
import { BrandCard } from './brand-card';
import { MESSAGES } from './messages';
import { useBrandDrafts } from './use-brand-drafts';
import './whitelabel.css';

const NO_BRANDS: Brand[] = [];
const ALL_BRANDS = 'all';

export default function WhiteLabelPage() {
  const { data: brands = NO_BRANDS, isPending: loading, error } = useQueryNow(brandsQuery);
  useQueryError(error, () => toast.error(MESSAGES.brandsFetchFailed));
  const [filter, setFilter] = useState(ALL_BRANDS);
  const [openId, setOpenId] = useState<number | null>(null);
  const { drafts, setDraft, markSaved } = useBrandDrafts();

  function chooseFilter(value: string | null) {
    const chosen = value ?? ALL_BRANDS;
    setFilter(chosen);
    if (chosen !== ALL_BRANDS) setOpenId(Number(chosen));
  }

  /** A brand just added is opened, among all brands. */
  function showAdded(brand: Brand) {
    setOpenId(brand.id);
    setFilter(ALL_BRANDS);
  }

  const shown = filter === ALL_BRANDS ? brands : brands.filter((b) => String(b.id) === filter);
  const brandChoices = [
    { value: ALL_BRANDS, label: 'All Brands' },
    ...brands.map((b) => ({ value: String(b.id), label: b.brand })),
  ];

  return (
    <section className="vx-page">
      <header>
        <h1 className="vx-page-title">White Labeled Brands</h1>
        <p className="wl-subtitle vx-muted">Manage your brands and their manufacturers</p>
      </header>

      <div className="wl-toolbar">
        <SearchSelect
          className="wl-filter"
          ariaLabel="Filter by brand"
          options={brandChoices}
          value={filter}
          onChange={chooseFilter}
        />
        <AddBrandForm brands={brands} onAdded={showAdded} />
      </div>

      {loading ? (
        <p className="vx-muted">Loading brands…</p>
      ) : (
        !shown.some((b) => b.id === openId) && <p className="wl-hint vx-muted">Select a brand to edit.</p>
      )}

      <div className="wl-cards">
        {shown.map((brand) => {
          const open = brand.id === openId;
          return (
            <BrandCard
              key={brand.id}
              brand={brand}
              open={open}
              list={drafts.get(brand.id) ?? brand.white_labeled_brands.data}
              unsaved={drafts.has(brand.id)}
              onToggle={() => setOpenId(open ? null : brand.id)}
              onChange={(next) => setDraft(brand, next)}
              onSaved={() => markSaved(brand)}
            />
          );
        })}
      </div>
    </section>
  );
}
