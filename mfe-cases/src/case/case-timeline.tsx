// The case's timeline, oldest first: when, who, what (and the note or reason it carries, or what a
// later scan found).
import { formatDateTime, type CaseEvent } from '@veritas/shared';
import { eventText, orderedTimeline, scanFacts } from './case-text';

export function CaseTimeline({ timeline }: { timeline: readonly CaseEvent[] }) {
  const entries = orderedTimeline(timeline);
  return (
    <section className="vx-card" aria-labelledby="cp-timeline">
      <h2 id="cp-timeline" className="vx-card-title">
        Timeline
      </h2>
      {entries.length === 0 ? (
        <p className="vx-muted">Nothing has happened to this case yet.</p>
      ) : (
        <ol className="cp-timeline">
          {entries.map((event) => {
            const scanned = scanFacts(event);
            return (
              <li key={event.id} className="cp-timeline__entry" data-kind={event.kind}>
                <time className="cp-timeline__time vx-muted" dateTime={event.at}>
                  {formatDateTime(event.at)}
                </time>
                <span className="cp-timeline__who">{event.by ?? 'System'}</span>
                <span className="cp-timeline__what">{eventText(event)}</span>
                {scanned.length > 0 && (
                  <dl className="cp-timeline__scan">
                    {scanned.map((fact) => (
                      <div key={fact.term}>
                        <dt>{fact.term}</dt>
                        <dd>{fact.value}</dd>
                      </div>
                    ))}
                  </dl>
                )}
                {event.note && (
                  <p className="cp-timeline__note">
                    {event.kind === 'reopened' && <span className="vx-sr-only">Reason: </span>}
                    {event.note}
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
