// The pick list's 'Filter by tracking id...' box with its × button (docs/screens.md#device-pick-list).
export function TrackingIdFilter({ value, onChange }: { value: string; onChange: (text: string) => void }) {
  return (
    <div className="dl-search">
      <input
        className="vx-input"
        type="text"
        placeholder="Filter by tracking id..."
        aria-label="Filter by tracking id"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {value && (
        <button
          type="button"
          className="dl-search__clear"
          aria-label="Clear tracking id filter"
          onClick={() => onChange('')}
        >
          ×
        </button>
      )}
    </div>
  );
}
