// A bulk job's progress (api/cases/jobs/), read each second while it runs: once done, said once and
// the cases read again. It takes the keyboard's focus the bulk actions' bar drops as it leaves.
import { focusSectionHeading, focusWasDropped, toast } from '@veritas/shared';
import { useQueryClient, useQueryNow } from '@veritas/shared/query';
import { useEffect, useId, useRef } from 'react';
import { CASES_KEY, jobQuery } from '../api/cases';
import { BULK_MESSAGES, casesText, numberText } from './bulk-text';

/** A job's progress in words: "done of total (skipped)". */
export const progressText = (job: { done: number; total: number; skipped: number }) =>
  `${numberText(job.done)} of ${numberText(job.total)} done (${numberText(job.skipped)} skipped)`;

export function JobProgress({ id, onClose }: { id: number; onClose: () => void }) {
  const client = useQueryClient();
  const labelId = useId();
  // A failed reading is shown here (and asked again each second while the job runs).
  const { data: job, error, refetch } = useQueryNow(jobQuery(id));
  const finished = job?.state === 'done';

  // Once done: said once, and every cases query but the jobs' is read again.
  const reported = useRef<number | null>(null);
  useEffect(() => {
    if (!job || job.state !== 'done' || reported.current === job.id) return;
    reported.current = job.id;
    toast.success(
      `${job.action === 'assign' ? 'Assigned' : 'Resolved'} ${casesText(job.done)}${job.skipped ? `; ${numberText(job.skipped)} skipped` : ''}.`,
    );
    void client.invalidateQueries({ queryKey: CASES_KEY, predicate: (query) => query.queryKey[1] !== 'job' });
  }, [job, client]);

  // It shows as the bulk actions' bar leaves with their Start: the keyboard's focus, dropped to the
  // page, comes here; once it is closed, to the page's heading.
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focusWasDropped()) section.current?.focus();
  }, []);
  const close = () => {
    const page = section.current?.parentElement ?? null;
    onClose();
    focusSectionHeading(page);
  };

  const doing = job?.action === 'resolve' ? 'Resolving cases' : 'Assigning cases';
  return (
    <section ref={section} className="vx-card cq-job" aria-label="Bulk job" tabIndex={-1}>
      <p id={labelId} className="cq-job__label">
        {job ? (finished ? `${doing}: done` : doing) : 'Starting the job…'}
      </p>
      <progress
        className="cq-job__bar"
        aria-labelledby={labelId}
        max={job?.total || 1}
        value={job ? job.done : undefined}
      />
      <p className="cq-job__text" role="status">
        {job && progressText(job)}
      </p>
      {error && !job && (
        <p className="vx-error-text" role="alert">
          {BULK_MESSAGES.progressFailed}{' '}
          <button type="button" className="vx-btn" onClick={() => void refetch()}>
            Retry
          </button>
        </p>
      )}
      {finished && (
        <button type="button" className="vx-btn" onClick={close}>
          Close
        </button>
      )}
    </section>
  );
}
