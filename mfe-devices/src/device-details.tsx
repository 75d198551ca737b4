// Body of the 'Device Details' modal: the record's three-step timeline, then the sections other
// remotes add to it (slot `device-details.section`, declared in remote.json).
import { formatDateTime, NOT_AVAILABLE, recordTimeline, Slot, type DeviceRecord } from '@veritas/shared';

export function DeviceDetails({ record }: { record: DeviceRecord }) {
  return (
    <div className="dl-details">
      <p className="dl-details__id">
        Tracking ID <strong>{record.tracking_id.tracking_id}</strong>
      </p>
      <ol className="dl-timeline">
        {recordTimeline(record).map((step) => (
          <li key={step.label} className="dl-timeline__step" data-testid="timeline-step" data-reached={step.reached}>
            <span className="dl-timeline__dot" aria-hidden="true" />
            <div>
              <div className="dl-timeline__label">{step.label}</div>
              {step.reached ? (
                <>
                  <div className="dl-timeline__time">{formatDateTime(step.time)}</div>
                  <div className="dl-timeline__by">by {step.by ?? NOT_AVAILABLE}</div>
                </>
              ) : (
                <div className="dl-timeline__time vx-muted">{NOT_AVAILABLE}</div>
              )}
            </div>
          </li>
        ))}
      </ol>
      <Slot name="device-details.section" props={{ record }} />
    </div>
  );
}
