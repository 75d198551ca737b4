// The pick list's 'Filter by tracking id...' box with its × button (docs/screens.md#device-pick-list).
// It takes no more text than the server searches for: a longer one would be refused (400).
import { MAX_SEARCH_LENGTH } from '@veritas/shared/domain';
import { useRef } from 'react';

export function TrackingIdFilter({ value, onChange }: { value: string; onChange: (text: string) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="dl-search">
      <input
        ref={input}
        className="vx-input"
        type="text"
        placeholder="Filter by tracking id..."
        aria-label="Filter by tracking id"
        maxLength={MAX_SEARCH_LENGTH}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {value && (
        <button
          type="button"
          className="dl-search__clear"
          aria-label="Clear tracking id filter"
          onClick={() => {
            onChange('');
            // The button leaves with the text: the keyboard's focus goes back to the box.
            input.current?.focus();
          }}
        >
          ×
        </button>
      )}
    </div>
  );
}
