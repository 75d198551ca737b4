// The Cases queue's bulk actions (roles that may run jobs): the cases ticked, or every case matching
// the filters, assigned or resolved by a job of api/cases/jobs/, whose progress shows until it is
// done; then the queue is read again.
import {
  BusyButton,
  SearchSelect,
  focusSectionHeading,
  focusWasDropped,
  notifyError,
  toast,
  type CaseCount,
  type CaseSummary,
  type NewCaseJob,
  type Role,
  type SelectOption,
} from '@veritas/shared';
import {
  CASE_DISPOSITIONS,
  CASE_DISPOSITION_LABELS,
  MAX_BULK_CASES,
  MAX_CASE_NOTE_LENGTH,
  type CaseDisposition,
} from '@veritas/shared/case-vocabulary';
import { useMutation, useQueryClient, useQueryError, useQueryNow } from '@veritas/shared/query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { CASES_KEY, assigneesQuery, jobQuery, startJob } from '../api/cases';
import { queryOfFilter, type CaseFilter } from './case-filter';
import type { Selection } from './case-table';

/** The roles that may run bulk jobs. */
export const BULK_ROLES: readonly Role[] = ['incharge', 'central_ops', 'admin', 'super_admin'];
export const canRunJobs = (role: Role | null): boolean => role !== null && BULK_ROLES.includes(role);

/** The most cases a job takes by id (NewCaseJob's ids); more are selected as "all matching". */
export const MAX_JOB_IDS = 1000;

export const BULK_MESSAGES = {
  startFailed: 'Failed to start the job',
  progressFailed: 'Failed to read the job’s progress',
  assigneeMissing: 'Choose whom to assign the cases to.',
  dispositionMissing: 'Choose a disposition.',
  noteMissing: 'A resolution needs a note.',
  tooManyIds: `Tick at most ${MAX_JOB_IDS} cases, or select all matching.`,
} as const;

const number = (n: number) => n.toLocaleString('en-US');
const casesText = (n: number) => `${number(n)} ${n === 1 ? 'case' : 'cases'}`;

/** The queue's selection: the cases ticked, or every case matching the filters. */
export interface CaseSelection extends Selection {
  allMatching: boolean;
  /** The cases ticked (every row shown while all matching are selected). */
  ids: readonly number[];
  selectAllMatching(): void;
  clear(): void;
}

const NONE: ReadonlySet<number> = new Set();

/** The selection of the rows shown under the filters `key`: other filters start with none. */
export function useCaseSelection(key: string, rows: readonly CaseSummary[]): CaseSelection {
  const [state, setState] = useState({ key, ticked: NONE, allMatching: false });
  const current = state.key === key ? state : { key, ticked: NONE, allMatching: false };
  const shown = rows.map((row) => row.id);
  const selected = current.allMatching ? new Set(shown) : current.ticked;
  const set = (ticked: ReadonlySet<number>, allMatching = false) => setState({ key, ticked, allMatching });
  return {
    selected,
    allMatching: current.allMatching,
    ids: [...selected],
    toggle(id) {
      const ticked = new Set(selected);
      if (!ticked.delete(id)) ticked.add(id);
      set(ticked);
    },
    toggleAll() {
      const all = shown.length > 0 && shown.every((id) => selected.has(id));
      const ticked = new Set(selected);
      for (const id of shown) {
        if (all) ticked.delete(id);
        else ticked.add(id);
      }
      set(ticked);
    },
    selectAllMatching: () => set(selected, true),
    clear: () => set(NONE),
  };
}

/** A job's progress in words: "done of total (skipped)". */
export const progressText = (job: { done: number; total: number; skipped: number }) =>
  `${number(job.done)} of ${number(job.total)} done (${number(job.skipped)} skipped)`;

function JobProgress({ id, onClose }: { id: number; onClose: () => void }) {
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
      `${job.action === 'assign' ? 'Assigned' : 'Resolved'} ${casesText(job.done)}${job.skipped ? `; ${number(job.skipped)} skipped` : ''}.`,
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

type Action = 'assign' | 'resolve';

const DISPOSITIONS: SelectOption[] = CASE_DISPOSITIONS.map((value) => ({
  value,
  label: CASE_DISPOSITION_LABELS[value],
}));

/** The assignee chosen in the Assign form: a username, or '' for unassigned; null: not chosen. */
function AssignFields({
  queue,
  assignee,
  onChange,
  error,
}: {
  queue: string;
  assignee: string | null;
  onChange: (assignee: string | null) => void;
  error: string | null;
}) {
  const id = useId();
  const { data: users, error: usersError } = useQueryNow({ ...assigneesQuery(queue), enabled: queue !== '' });
  useQueryError(usersError, (failure) => notifyError(failure, 'Failed to load who may be assigned'));
  const described = error ? { 'aria-describedby': `${id}-error`, 'aria-invalid': true as const } : {};
  const message = error && (
    <p id={`${id}-error`} className="vx-error-text">
      {error}
    </p>
  );

  if (queue) {
    const options: SelectOption[] = [
      { value: '', label: 'Unassigned' },
      ...(users ?? []).map((user) => ({ value: user.username, label: `${user.username} (${user.role})` })),
    ];
    return (
      <div className="vx-field cq-field">
        <SearchSelect
          className="cq-select"
          label="Assign to"
          options={options}
          value={assignee}
          placeholder={`A user of ${queue}`}
          loading={!users && !usersError}
          onChange={onChange}
        />
        {message}
      </div>
    );
  }
  const unassigned = assignee === '';
  return (
    <>
      <div className="vx-field cq-field">
        <label className="vx-label" htmlFor={`${id}-user`}>
          Assign to (username)
        </label>
        <input
          id={`${id}-user`}
          className="vx-input"
          value={unassigned ? '' : (assignee ?? '')}
          disabled={unassigned}
          maxLength={150}
          autoComplete="off"
          spellCheck={false}
          {...described}
          onChange={(event) => onChange(event.target.value || null)}
        />
        {message}
      </div>
      <div className="vx-field cq-field cq-field--check">
        <input
          id={`${id}-none`}
          type="checkbox"
          className="cq-checkbox"
          checked={unassigned}
          onChange={(event) => onChange(event.target.checked ? '' : null)}
        />
        <label htmlFor={`${id}-none`}>Unassigned</label>
      </div>
    </>
  );
}

export function BulkActions({
  selection,
  count,
  filter,
}: {
  selection: CaseSelection;
  count: CaseCount | undefined;
  filter: CaseFilter;
}) {
  const formId = useId();
  const [action, setAction] = useState<Action | null>(null);
  const [assignee, setAssignee] = useState<string | null>(null);
  const [disposition, setDisposition] = useState<CaseDisposition | null>(null);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ assignee?: string; disposition?: string; note?: string }>({});
  const [jobId, setJobId] = useState<number | null>(null);

  const start = useMutation({
    mutationFn: startJob,
    onSuccess: (job) => {
      setJobId(job.id);
      setAction(null);
      setAssignee(null);
      setDisposition(null);
      setNote('');
      selection.clear();
    },
    onError: (failure) => notifyError(failure, BULK_MESSAGES.startFailed),
  });

  const chosen = selection.allMatching ? null : selection.ids.length;
  const tooMany = chosen !== null && chosen > MAX_JOB_IDS;
  const anySelected = selection.allMatching || selection.ids.length > 0;

  const matching = count && (count.capped || count.total > MAX_BULK_CASES) ? null : count?.total;
  const selectedText = selection.allMatching
    ? matching === undefined || matching === null
      ? `All matching cases selected (at most ${number(MAX_BULK_CASES)})`
      : `All ${casesText(matching)} matching selected`
    : `${number(selection.ids.length)} selected`;
  const offerAll =
    !selection.allMatching && count !== undefined && (count.capped || count.total > selection.ids.length);

  function open(next: Action) {
    setErrors({});
    setAction((current) => (current === next ? null : next));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!action || tooMany || start.isPending) return;
    const found: typeof errors = {};
    if (action === 'assign' && assignee === null) found.assignee = BULK_MESSAGES.assigneeMissing;
    if (action === 'resolve' && !disposition) found.disposition = BULK_MESSAGES.dispositionMissing;
    if (action === 'resolve' && !note.trim()) found.note = BULK_MESSAGES.noteMissing;
    setErrors(found);
    if (Object.keys(found).length) return;
    const which = selection.allMatching ? { filters: queryOfFilter(filter) } : { ids: [...selection.ids] };
    const job: NewCaseJob =
      action === 'assign'
        ? { action, ...which, assignee: assignee === '' ? null : assignee!.trim() }
        : { action, ...which, disposition: disposition!, note: note.trim() };
    start.mutate(job);
  }

  const noteId = `${formId}-note`;

  return (
    <>
      {anySelected && (
        <section className="vx-card cq-bulk" aria-label="Bulk actions">
          <div className="cq-bulk__bar">
            <p className="cq-bulk__count" aria-live="polite">
              {selectedText}
            </p>
            {offerAll && (
              <button type="button" className="vx-btn" onClick={selection.selectAllMatching}>
                {matching === null || matching === undefined
                  ? `Select all matching (at most ${number(MAX_BULK_CASES)})`
                  : `Select all ${number(matching)} matching`}
              </button>
            )}
            <button type="button" className="vx-btn" onClick={selection.clear}>
              Clear selection
            </button>
            <button
              type="button"
              className="vx-btn"
              aria-expanded={action === 'assign'}
              aria-controls={action === 'assign' ? formId : undefined}
              onClick={() => open('assign')}
            >
              Assign to…
            </button>
            <button
              type="button"
              className="vx-btn"
              aria-expanded={action === 'resolve'}
              aria-controls={action === 'resolve' ? formId : undefined}
              onClick={() => open('resolve')}
            >
              Resolve…
            </button>
          </div>
          {tooMany && <p className="vx-error-text">{BULK_MESSAGES.tooManyIds}</p>}

          {action && (
            <form
              id={formId}
              className="cq-bulk__form"
              aria-label={action === 'assign' ? 'Assign cases' : 'Resolve cases'}
              onSubmit={submit}
              noValidate
            >
              {action === 'assign' ? (
                <AssignFields
                  queue={filter.queue}
                  assignee={assignee}
                  onChange={setAssignee}
                  error={errors.assignee ?? null}
                />
              ) : (
                <>
                  <div className="vx-field cq-field">
                    <SearchSelect
                      className="cq-select"
                      label="Disposition"
                      options={DISPOSITIONS}
                      value={disposition}
                      placeholder="Choose a disposition"
                      onChange={(value) => setDisposition(value as CaseDisposition | null)}
                    />
                    {errors.disposition && <p className="vx-error-text">{errors.disposition}</p>}
                  </div>
                  <div className="vx-field cq-field cq-field--wide">
                    <label className="vx-label" htmlFor={noteId}>
                      Note
                    </label>
                    <textarea
                      id={noteId}
                      className="vx-input cq-note"
                      value={note}
                      required
                      rows={3}
                      maxLength={MAX_CASE_NOTE_LENGTH}
                      aria-invalid={errors.note ? true : undefined}
                      aria-describedby={errors.note ? `${noteId}-error` : undefined}
                      onChange={(event) => setNote(event.target.value)}
                    />
                    {errors.note && (
                      <p id={`${noteId}-error`} className="vx-error-text">
                        {errors.note}
                      </p>
                    )}
                  </div>
                </>
              )}
              <div className="cq-bulk__actions">
                <BusyButton type="submit" className="vx-btn vx-btn-primary" disabled={tooMany} busy={start.isPending}>
                  {start.isPending ? 'Starting…' : 'Start'}
                </BusyButton>
                <button type="button" className="vx-btn" onClick={() => setAction(null)}>
                  Cancel
                </button>
              </div>
            </form>
          )}
        </section>
      )}
      {jobId !== null && <JobProgress key={jobId} id={jobId} onClose={() => setJobId(null)} />}
    </>
  );
}
