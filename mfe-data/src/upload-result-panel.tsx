// The success panel of an upload (docs/csv.md#result): the server's message, the counts, and the rows it
// did not store. The server lists at most the first 1000 of each kind and sends the totals.
import { ScrollRegion, type UploadResult } from '@veritas/shared';
import type { ReactNode } from 'react';

function RowList({ title, total, children }: { title: string; total: number; children: ReactNode[] }) {
  if (total === 0) return null;
  const more = total - children.length;
  return (
    <section className="dt-rows" aria-label={title}>
      <h2 className="dt-rows__title">
        {title} ({total})
      </h2>
      <ScrollRegion label={`${title} list`} className="dt-rows__scroll">
        <ul className="dt-rows__list">{children}</ul>
      </ScrollRegion>
      {more > 0 && <p className="dt-rows__more">and {more} more</p>}
    </section>
  );
}

export function UploadResultPanel({ result }: { result: UploadResult }) {
  return (
    <div className="vx-notice vx-notice--success dt-panel dt-result" role="status">
      <p className="dt-result__title">{result.message || 'Upload complete'}</p>
      <dl className="dt-counts">
        <div>
          <dt>Processed</dt>
          <dd>{result.processed}</dd>
        </div>
        <div>
          <dt>Skipped</dt>
          <dd>{result.skipped}</dd>
        </div>
      </dl>
      <RowList title="Duplicates" total={result.duplicates_total}>
        {result.duplicates.map(({ row, tracking_id }) => (
          <li key={row}>
            Row {row}: {tracking_id}
          </li>
        ))}
      </RowList>
      <RowList title="Errors" total={result.errors_total}>
        {result.errors.map(({ row, errors }) => (
          <li key={row}>
            Row {row}: {errors.join('; ')}
          </li>
        ))}
      </RowList>
    </div>
  );
}
