// The details of one audit entry (docs/screens.md#audit-log): the full actor, the target's id, the
// hash, and what `details` holds: a Before → After comparison, then every other key.
import type { AuditEntry } from '@veritas/shared';
import { DataTable, type Column } from '@veritas/shared/table';
import type { ReactNode } from 'react';
import { NONE, splitDetails } from './entry-text';

function Fact({ term, className, children }: { term: string; className?: string; children: ReactNode }) {
  return (
    <div className="al-facts__pair">
      <dt>{term}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}

type ChangeRow = NonNullable<ReturnType<typeof splitDetails>['change']>[number];

const CHANGE_COLUMNS: Column<ChangeRow>[] = [
  {
    header: 'Field',
    rowHeader: true,
    cell: (row) => (
      <>
        {row.field || 'value'}
        {row.changed && <span className="al-change__mark"> (changed)</span>}
      </>
    ),
  },
  { header: 'Before', className: 'al-value', cell: (row) => row.before },
  { header: 'After', className: 'al-value', cell: (row) => row.after },
];

function Change({ rows }: { rows: readonly ChangeRow[] }) {
  const changed = rows.filter((row) => row.changed && row.field);
  return (
    <div className="al-change">
      {changed.length > 0 && (
        <p className="al-change__summary">
          Changed: <span className="al-mono">{changed.map((row) => row.field).join(', ')}</span>
        </p>
      )}
      <DataTable
        caption="Before → After"
        captionClassName="al-change__caption"
        className="vx-table al-change__table"
        wrapClassName={false}
        columns={CHANGE_COLUMNS}
        rows={rows}
        rowKey={(row) => row.field}
        rowAttributes={(row) => ({ className: row.changed ? 'al-change__row--changed' : undefined })}
        empty={NONE}
      />
    </div>
  );
}

export function EntryDetails({ entry, id }: { entry: AuditEntry; id: string }) {
  const { actor, target } = entry;
  const { change, other } = splitDetails(entry.details);
  return (
    <div id={id} className="al-details" role="region" aria-label={`Details of entry ${entry.seq}`}>
      <dl className="al-facts">
        <Fact term="Entry">{entry.seq}</Fact>
        <Fact term="Time (UTC)" className="al-mono">
          {entry.time}
        </Fact>
        <Fact term="Actor">
          {actor.kind} <strong>{actor.name || NONE}</strong>
          {actor.role && <>, role {actor.role}</>}
          {actor.id !== null && <>, id {actor.id}</>}
        </Fact>
        <Fact term="Target id" className="al-mono">
          {target?.id ?? NONE}
        </Fact>
        <Fact term="Hash" className="al-mono al-hash">
          {entry.hash}
        </Fact>
      </dl>
      {change && <Change rows={change} />}
      {other.length > 0 && (
        <dl className="al-facts al-other">
          {other.map(([key, value]) => (
            <Fact key={key} term={key} className="al-value">
              {value}
            </Fact>
          ))}
        </dl>
      )}
      {!change && other.length === 0 && <p className="vx-muted al-no-details">No further details.</p>}
    </div>
  );
}
