import { useId } from 'react';

export interface ProgressBarProps {
  /** The visible text, which also names the bar, e.g. 'Uploading... 40%'. */
  label: string;
  /** 0–100; leave out while the total is unknown (the bar is then indeterminate). */
  percent?: number;
}

/** A progress bar with its text above it. */
export function ProgressBar({ label, percent }: ProgressBarProps) {
  const labelId = useId();
  const known = percent !== undefined;
  return (
    <div className="dt-progress">
      <p id={labelId} className="dt-progress__label">
        {label}
      </p>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={known ? percent : undefined}
        className={`dt-progress__track${known ? '' : ' dt-progress__track--indeterminate'}`}
      >
        <div className="dt-progress__fill" style={known ? { width: `${percent}%` } : undefined} />
      </div>
    </div>
  );
}
