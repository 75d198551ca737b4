// The facts of a case: why it was opened, where it stands, the scan that flagged the device, and
// the device the shipment expected (docs/screens.md#device-pick-list for how a record is shown).
import { deviceError, expectedDevice, formatDateTime, NOT_AVAILABLE, type CaseDetail } from '@veritas/shared';
import { isOverdue } from '@veritas/shared/case-vocabulary';
import { stateText } from './case-text';

const orNA = (value: string | null | undefined) => (value?.trim() ? value : NOT_AVAILABLE);

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="cp-fact">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export function CaseFacts({ detail }: { detail: CaseDetail }) {
  const { case: summary, scan, record } = detail;
  const reason = deviceError(summary.reason);
  const overdue = isOverdue(summary);
  const expected = record ? expectedDevice(record) : null;
  const blind = record?.tracking_id.is_Blindpick ?? false;
  return (
    <div className="cp-facts">
      <section className="vx-card" aria-labelledby="cp-case-facts">
        <h2 id="cp-case-facts" className="vx-card-title">
          Case
        </h2>
        <dl className="cp-dl">
          <Fact term="Reason">
            <span className="cp-reason-code">{summary.reason}</span>
            {reason && <> · {reason.title}</>}
            {reason && <span className="cp-reason-description vx-muted">{reason.description}</span>}
          </Fact>
          <Fact term="State">{stateText(summary)}</Fact>
          <Fact term="Assignee">{summary.assignee ?? 'Unassigned'}</Fact>
          <Fact term="Queue">{summary.queue}</Fact>
          <Fact term="Due">
            <time dateTime={summary.due_at}>{formatDateTime(summary.due_at)}</time>
            {overdue && <span className="cp-overdue">Overdue</span>}
          </Fact>
          <Fact term="Opened">
            <time dateTime={summary.opened_at}>{formatDateTime(summary.opened_at)}</time>
          </Fact>
          {summary.resolved_at && (
            <Fact term="Resolved">
              <time dateTime={summary.resolved_at}>{formatDateTime(summary.resolved_at)}</time>
            </Fact>
          )}
          <Fact term="Tracking ID">{summary.tracking_id}</Fact>
        </dl>
      </section>

      <section className="vx-card" aria-labelledby="cp-case-scan">
        <h2 id="cp-case-scan" className="vx-card-title">
          Flagging scan
        </h2>
        <dl className="cp-dl">
          <Fact term="Scanned by">{orNA(scan.by)}</Fact>
          <Fact term="Scanned at">
            <time dateTime={scan.at}>{formatDateTime(scan.at)}</time>
          </Fact>
          <Fact term="Scanned model">{orNA(scan.model)}</Fact>
          <Fact term="Manufacturer">{orNA(scan.manufacturer)}</Fact>
          <Fact term="MAC address">{orNA(scan.mac_address)}</Fact>
          <Fact term="Hardware ID">{orNA(scan.hardware_id)}</Fact>
        </dl>
      </section>

      <section className="vx-card" aria-labelledby="cp-case-expected">
        <h2 id="cp-case-expected" className="vx-card-title">
          Expected device
        </h2>
        {expected ? (
          <dl className="cp-dl">
            <Fact term={blind ? 'Blind pick brand' : 'Brand'}>{expected.brand}</Fact>
            <Fact term={blind ? 'Blind pick model' : 'Model'}>{expected.name}</Fact>
            <Fact term="Hub">{orNA(record?.tracking_id.hub_code)}</Fact>
          </dl>
        ) : (
          <p className="vx-muted">No device record for this tracking ID.</p>
        )}
      </section>
    </div>
  );
}
