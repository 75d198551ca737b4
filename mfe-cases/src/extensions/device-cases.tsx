// Slot device-details.section: the cases of the device's tracking ID, newest first, each linking
// to its Case page. Nothing while loading or on error: Device Details never waits for it.
import { formatDateTime, Link, type DeviceDetailsSectionProps } from '@veritas/shared';
import { useQueryNow } from '@veritas/shared/query';
import { useId } from 'react';
import { casesOfQuery } from '../api/cases';
import { isOverdue } from '@veritas/shared/case-vocabulary';
import { reasonText, stateText } from '../case/case-text';
import '../case/extensions.css';

export const NO_CASE = 'No case for this device.';

export default function DeviceCases({ record }: DeviceDetailsSectionProps) {
  const headingId = useId();
  const { data: cases } = useQueryNow(casesOfQuery(record.tracking_id.tracking_id));
  if (!cases) return null;
  return (
    <section className="cx-section" aria-labelledby={headingId}>
      <h3 id={headingId} className="cx-section__title">
        Cases
      </h3>
      {cases.length === 0 ? (
        <p className="vx-muted">{NO_CASE}</p>
      ) : (
        <ul className="cx-cases">
          {cases.map((item) => (
            <li key={item.id} className="cx-case">
              <Link to={`/Case?id=${item.id}`}>#{item.id}</Link>
              <span>{reasonText(item.reason)}</span>
              <span>{stateText(item)}</span>
              {item.state !== 'resolved' && (
                <span>
                  Due <time dateTime={item.due_at}>{formatDateTime(item.due_at)}</time>
                  {isOverdue(item) && <span className="cx-overdue"> · Overdue</span>}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
