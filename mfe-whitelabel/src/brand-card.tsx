// One brand on the White Label page (docs/screens.md#white-labeled-brands): a heading that opens
// and closes its editor, with the count of its manufacturers and whether its list is unsaved.
import type { Brand } from '@veritas/shared';
import { BrandEditor } from './brand-editor';

export interface BrandCardProps {
  brand: Brand;
  open: boolean;
  /** Its list as edited: the draft, else the saved one. */
  list: string[];
  unsaved: boolean;
  onToggle(): void;
  onChange(list: string[]): void;
  onSaved(): void;
}

export function BrandCard({ brand, open, list, unsaved, onToggle, onChange, onSaved }: BrandCardProps) {
  const panelId = `wl-brand-${brand.id}`;
  return (
    <article className="vx-card wl-card" data-brand={brand.brand}>
      <h2 className="wl-card__heading">
        <button
          type="button"
          className="wl-card__toggle"
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          onClick={onToggle}
        >
          <span className="wl-card__chevron" aria-hidden="true" />
          <span className="wl-card__name">{brand.brand}</span>
          <span className="wl-card__count vx-muted">
            {list.length} manufacturer{list.length === 1 ? '' : 's'}
          </span>
          {unsaved && <span className="wl-card__unsaved">Unsaved changes</span>}
        </button>
      </h2>
      {open && (
        <div id={panelId} role="region" aria-label={brand.brand}>
          <BrandEditor brand={brand} list={list} onChange={onChange} onSaved={onSaved} />
        </div>
      )}
    </article>
  );
}
