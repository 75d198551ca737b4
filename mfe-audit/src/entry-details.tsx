// The details of one audit entry (docs/screens.md#audit-log): the full actor, the target's id, the
// hash, and what `details` holds: a Before → After comparison, then every other key.
import type { AuditEntry } from '@veritas/shared';
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

function Change({ rows }: { rows: NonNullable<ReturnType<typeof splitDetails>['change']> }) {
  const changed = rows.filter((row) => row.changed && row.field);
  return (
    <div className="al-change">
      {changed.length > 0 && (
        <p className="al-change__summary">
          Changed: <span className="al-mono">{changed.map((row) => row.field).join(', ')}</span>
        </p>
      )}
      <table className="vx-table al-change__table">
        <caption className="al-change__caption">Before → After</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.field} className={row.changed ? 'al-change__row--changed' : undefined}>
              <th scope="row">
                {row.field || 'value'}
                {row.changed && <span className="al-change__mark"> (changed)</span>}
              </th>
              <td className="al-value">{row.before}</td>
              <td className="al-value">{row.after}</td>
            </tr>
          ))}
        </tbody>
      </table>
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
