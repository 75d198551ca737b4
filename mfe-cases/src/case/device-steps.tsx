// The device's three steps from its record: at the doorstep, at the hub, at the return centre,
// each with who and when, or pending (the same steps as Device Details, recordTimeline).
import { formatDateTime, NOT_AVAILABLE, recordTimeline, type DeviceRecord } from '@veritas/shared';

const STEP_NAMES = ['Doorstep', 'Hub', 'Return centre'] as const;
const STEP_VERBS = ['Submitted', 'Verified', 'Detached'] as const;

export function DeviceSteps({ record }: { record: DeviceRecord | null }) {
  return (
    <section className="vx-card" aria-labelledby="cp-device-steps">
      <h2 id="cp-device-steps" className="vx-card-title">
        Device steps
      </h2>
      {record ? (
        <ol className="cp-steps">
          {recordTimeline(record).map((step, index) => (
            <li key={step.label} className="cp-step" data-reached={step.reached} data-testid="device-step">
              <span className="cp-step__name">{STEP_NAMES[index]}</span>
              {step.reached ? (
                <span>
                  {STEP_VERBS[index]} by {step.by ?? NOT_AVAILABLE}
                  {step.time && (
                    <>
                      {' '}
                      at <time dateTime={step.time}>{formatDateTime(step.time)}</time>
                    </>
                  )}
                </span>
              ) : (
                <span className="vx-muted">pending</span>
              )}
            </li>
          ))}
        </ol>
      ) : (
        <p className="vx-muted">No device record for this tracking ID.</p>
      )}
    </section>
  );
}
