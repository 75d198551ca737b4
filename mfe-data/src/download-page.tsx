// Download Data (route Download, docs/screens.md#download-data): the report CSV of a date range, with
// progress. Default export: the shell's page.
import { BusyButton, localDate, toast } from '@veritas/shared';
import { useId, useState, type FormEvent } from 'react';
import { downloadReport } from './api/downloads';
import { ProgressBar } from './progress-bar';
import { DATE_MESSAGES, rangeError, type DateField } from './report-dates';
import { saveBlob } from './save-blob';
import { formatBytes } from './sizes';
import './data.css';

export const DOWNLOAD_FAILED = 'Failed to download CSV. Please try again.';

interface Received {
  loaded: number;
  /** Unknown when the server streams the report without a length. */
  total?: number;
}

function progressLabel({ loaded, total }: Received): { label: string; percent?: number } {
  if (total) {
    // A compressed answer can count more bytes than its length says.
    const percent = Math.min(100, Math.round((loaded / total) * 100));
    return { label: `Downloading... ${percent}%`, percent };
  }
  return { label: loaded > 0 ? `Downloading... ${formatBytes(loaded)}` : 'Downloading...' };
}

export default function DownloadPage() {
  const startId = useId();
  const endId = useId();
  const messageId = useId();
  const [dates, setDates] = useState<Record<DateField, string>>({ start: '', end: '' });
  const [changed, setChanged] = useState<DateField>('end');
  // Until a date has been cleared, a missing date is a hint rather than an error.
  const [cleared, setCleared] = useState(false);
  const [received, setReceived] = useState<Received | null>(null);
  const [failed, setFailed] = useState(false);

  const today = localDate();
  const { start, end } = dates;
  const missing = !start || !end;
  const error = rangeError(start, end, today, changed);
  const loading = received !== null;
  const invalidField: DateField | null = error === DATE_MESSAGES.endAfterToday ? 'end' : error ? changed : null;

  function change(field: DateField, value: string) {
    setDates((current) => ({ ...current, [field]: value }));
    setChanged(field);
    if (!value) setCleared(true);
    setFailed(false);
  }

  async function download(event: FormEvent) {
    event.preventDefault();
    if (missing || error || loading) return;
    setFailed(false);
    setReceived({ loaded: 0 });
    try {
      saveBlob(await downloadReport({ start, end }, setReceived), `report_${start}_${end}.csv`);
    } catch {
      toast.error(DOWNLOAD_FAILED);
      setFailed(true);
    } finally {
      setReceived(null);
    }
  }

  const message = error ?? (missing ? DATE_MESSAGES.required : null);
  const messageIsError = error !== null || (missing && cleared);
  const progress = received && progressLabel(received);

  return (
    <section className="vx-page">
      <h1 className="vx-page-title">Download Data</h1>
      <form
        className="vx-card dt-card"
        aria-label="Download Data"
        noValidate
        onSubmit={(event) => void download(event)}
      >
        <div className="dt-dates">
          <div className="vx-field">
            <label className="vx-label" htmlFor={startId}>
              Start Date
            </label>
            <input
              id={startId}
              className="vx-input"
              type="date"
              max={today}
              value={start}
              aria-invalid={invalidField === 'start' || undefined}
              aria-describedby={message ? messageId : undefined}
              onChange={(e) => change('start', e.target.value)}
            />
          </div>
          <div className="vx-field">
            <label className="vx-label" htmlFor={endId}>
              End Date
            </label>
            <input
              id={endId}
              className="vx-input"
              type="date"
              min={start || undefined}
              max={today}
              value={end}
              aria-invalid={invalidField === 'end' || undefined}
              aria-describedby={message ? messageId : undefined}
              onChange={(e) => change('end', e.target.value)}
            />
          </div>
        </div>
        {message &&
          (messageIsError ? (
            <p id={messageId} className="dt-message vx-error-text" role="alert">
              {message}
            </p>
          ) : (
            <p id={messageId} className="dt-message vx-muted">
              {message}
            </p>
          ))}
        <BusyButton
          type="submit"
          className="vx-btn vx-btn-primary dt-action"
          disabled={missing || error !== null}
          busy={loading}
        >
          Download CSV
        </BusyButton>
        {progress && <ProgressBar label={progress.label} percent={progress.percent} />}
        {failed && (
          <p className="vx-notice vx-notice--error dt-panel" role="alert">
            {DOWNLOAD_FAILED}
          </p>
        )}
      </form>
    </section>
  );
}
