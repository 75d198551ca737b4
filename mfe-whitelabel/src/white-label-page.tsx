// White Labeled Brands (route WhiteLabel, docs/screens.md#white-labeled-brands): the brands, a filter, a form to
// add one, and a collapsible editor card per brand. One card is open at a time: it is the brand
// being edited. Unsaved lists are kept per brand while its card is closed, until saved or cancelled.
// Default export: the shell's page.
import { SearchSelect, toast, type Brand } from '@veritas/shared';
import { useQueryClient, useQueryError, useQueryNow } from '@veritas/shared/query';
import { useCallback, useState, type FormEvent } from 'react';
import { brandsQuery, useAddBrand } from './api/brands';
import { BrandEditor } from './brand-editor';
import { sameList } from './manufacturer-list';
import { MESSAGES, errorText } from './messages';
import './whitelabel.css';

const NO_BRANDS: Brand[] = [];
const ALL_BRANDS = 'all';
const MAX_BRAND_LENGTH = 128;

const brandKey = (name: string) => name.trim().toLowerCase();

export default function WhiteLabelPage() {
  const client = useQueryClient();
  const { data: brands = NO_BRANDS, isPending: loading, error } = useQueryNow(brandsQuery);
  useQueryError(error, () => toast.error(MESSAGES.brandsFetchFailed));
  const add = useAddBrand();
  const [filter, setFilter] = useState(ALL_BRANDS);
  const [openId, setOpenId] = useState<number | null>(null);
  const [drafts, setDrafts] = useState<ReadonlyMap<number, string[]>>(new Map());
  const [newBrand, setNewBrand] = useState('');

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

  async function addBrand(event: FormEvent) {
    event.preventDefault();
    const name = newBrand.trim();
    if (!name) {
      toast.error(MESSAGES.enterBrandName);
      return;
    }
    if (brands.some((b) => brandKey(b.brand) === brandKey(name))) {
      toast.error(MESSAGES.brandExists);
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
    if (created) {
      setOpenId(created.id);
      setFilter(ALL_BRANDS);
    }
  }

  function chooseFilter(value: string | null) {
    const chosen = value ?? ALL_BRANDS;
    setFilter(chosen);
    if (chosen !== ALL_BRANDS) setOpenId(Number(chosen));
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
          <button type="submit" className="vx-btn vx-btn-primary" disabled={add.isPending}>
            Add Brand
          </button>
        </form>
      </div>

      {loading ? (
        <p className="vx-muted">Loading brands…</p>
      ) : (
        !shown.some((b) => b.id === openId) && <p className="wl-hint vx-muted">Select a brand to edit.</p>
      )}

      <div className="wl-cards">
        {shown.map((brand) => {
          const open = brand.id === openId;
          const list = drafts.get(brand.id) ?? brand.white_labeled_brands.data;
          const panelId = `wl-brand-${brand.id}`;
          return (
            <article key={brand.id} className="vx-card wl-card" data-brand={brand.brand}>
              <h2 className="wl-card__heading">
                <button
                  type="button"
                  className="wl-card__toggle"
                  aria-expanded={open}
                  aria-controls={open ? panelId : undefined}
                  onClick={() => setOpenId(open ? null : brand.id)}
                >
                  <span className="wl-card__chevron" aria-hidden="true" />
                  <span className="wl-card__name">{brand.brand}</span>
                  <span className="wl-card__count vx-muted">
                    {list.length} manufacturer{list.length === 1 ? '' : 's'}
                  </span>
                  {drafts.has(brand.id) && <span className="wl-card__unsaved">Unsaved changes</span>}
                </button>
              </h2>
              {open && (
                <div id={panelId} role="region" aria-label={brand.brand}>
                  <BrandEditor
                    brand={brand}
                    list={list}
                    onChange={(next) => setDraft(brand, next)}
                    onSaved={() => markSaved(brand)}
                  />
                </div>
              )}
            </article>
          );
        })}
      </div>
    </section>
  );
}
