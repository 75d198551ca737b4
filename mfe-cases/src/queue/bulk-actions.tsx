// The Cases queue's bulk actions (roles that may run jobs): the cases ticked, or every case matching
// the filters, assigned or resolved by a job of api/cases/jobs/, whose progress shows until it is
// done; then the queue is read again.
import {
  BusyButton,
  SearchSelect,
  focusSectionHeading,
  focusWasDropped,
  notifyError,
  refusedField,
  serverMessage,
  toast,
  useSession,
  type CaseCount,
  type CaseSummary,
  type NewCaseJob,
  type SelectOption,
  MAX_USERNAME_LENGTH,
} from '@veritas/shared';
import {
  CASE_DISPOSITIONS,
  CASE_DISPOSITION_LABELS,
  CASE_FORM_MESSAGES,
  MAX_ASSIGNEE_QUEUES_LENGTH,
  MAX_BULK_CASES,
  MAX_CASE_JOB_IDS,
  MAX_CASE_NOTE_LENGTH,
  worksAllCases,
  type CaseDisposition,
} from '@veritas/shared/case-vocabulary';
import { useMutation, useQuery, useQueryClient, useQueryNow } from '@veritas/shared/query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { CASES_KEY, assigneesQuery, jobQuery, startJob } from '../api/cases';
import { assigneeLabel } from '../case/case-text';
import { queryOfFilter, type CaseFilter } from './case-filter';
import type { Selection } from './case-table';

export const BULK_MESSAGES = {
  startFailed: 'Failed to start the job',
  progressFailed: 'Failed to read the job’s progress',
  tooManyIds: `Tick at most ${MAX_CASE_JOB_IDS} cases, or select all matching.`,
  assigneesFailed: 'Could not load who may work these cases.',
  anyQueue: 'The cases matching may be in any queue: type a username, or filter by a queue to choose from its users.',
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

/**
 * The queues of the cases a bulk assignment would change, when they are known (docs/screens.md#cases-queue):
 * the ticked rows' queues; with all matching selected, the Queue filter's, else the viewer's own
 * group's when it reads only that queue (an incharge), else the queues of the rows shown once they
 * are every case matching. Each once, in capitals, sorted. null when they are not known (all
 * matching across queues not all read), or too many to ask api/cases/assignees/ about at once.
 */
export function assignQueues({
  allMatching,
  ids,
  rows,
  allLoaded,
  filterQueue,
  ownQueue,
}: {
  allMatching: boolean;
  ids: readonly number[];
  rows: readonly CaseSummary[];
  allLoaded: boolean;
  filterQueue: string;
  ownQueue: string | null;
}): string[] | null {
  const distinct = (codes: readonly string[]) =>
    [...new Set(codes.map((code) => code.trim().toUpperCase()).filter(Boolean))].sort();
  let queues: string[];
  if (!allMatching) {
    const ticked = new Set(ids);
    queues = distinct(rows.filter((row) => ticked.has(row.id)).map((row) => row.queue));
  } else if (filterQueue.trim()) queues = distinct([filterQueue]);
  else if (ownQueue?.trim()) queues = distinct([ownQueue]);
  else if (allLoaded) queues = distinct(rows.map((row) => row.queue));
  else return null;
  if (queues.length === 0 || queues.join(',').length > MAX_ASSIGNEE_QUEUES_LENGTH) return null;
  return queues;
}

/** The most queues the hint under Assign to names; more are counted. */
const QUEUES_NAMED = 5;

function queuesHint(queues: readonly string[]): string {
  if (queues.length === 1) return `Users who may work queue ${queues[0]}.`;
  const named =
    queues.length <= QUEUES_NAMED
      ? queues.join(', ')
      : `${queues.slice(0, QUEUES_NAMED).join(', ')} and ${number(queues.length - QUEUES_NAMED)} more`;
  return `Users who may work every queue selected: ${named}.`;
}

interface AssigneeFieldProps {
  assignee: string | null;
  onChange: (assignee: string | null) => void;
  error: string | null;
}

/** A field's fault under it; announced, as a choice of the searchable select cannot be described by it. */
function FieldError({ id, error }: { id: string; error: string | null }) {
  return error ? (
    <p id={id} className="vx-error-text" role="alert">
      {error}
    </p>
  ) : null;
}

/** Assign to: Unassigned, or one of the users who may work every queue of the cases selected. */
function AssigneeChoice({ queues, assignee, onChange, error }: AssigneeFieldProps & { queues: readonly string[] }) {
  const id = useId();
  // One call for every queue (api/cases/assignees/?queue=A,B): the users who may work each of them.
  const { data: users, error: usersError } = useQuery(assigneesQuery(queues.join(',')));
  // A user chosen (or typed) before the cases selected changed, who may not work all their queues, is not offered.
  useEffect(() => {
    if (users && assignee && !users.some((user) => user.username === assignee)) onChange(null);
  }, [users, assignee, onChange]);
  const options: SelectOption[] = [
    { value: '', label: 'Unassigned' },
    ...(users ?? []).map((user) => ({
      value: user.username,
      label: assigneeLabel(user),
    })),
  ];
  return (
    <div className="vx-field cq-field" data-invalid={error ? true : undefined}>
      <SearchSelect
        className="cq-select"
        label="Assign to"
        options={options}
        value={assignee}
        placeholder={queues.length === 1 ? `A user of ${queues[0]}` : 'A user of every queue selected'}
        loading={!users && !usersError}
        onChange={onChange}
      />
      <p className="vx-hint">{queuesHint(queues)}</p>
      <FieldError id={`${id}-error`} error={error ?? (usersError ? BULK_MESSAGES.assigneesFailed : null)} />
    </div>
  );
}

/** Assign to, the queues not known: a username typed, or Unassigned. */
function AssigneeTyped({ assignee, onChange, error }: AssigneeFieldProps) {
  const id = useId();
  const unassigned = assignee === '';
  const described = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <>
      <div className="vx-field cq-field" data-invalid={error ? true : undefined}>
        <label className="vx-label" htmlFor={`${id}-user`}>
          Assign to (username)
        </label>
        <input
          id={`${id}-user`}
          className="vx-input"
          value={unassigned ? '' : (assignee ?? '')}
          disabled={unassigned}
          maxLength={MAX_USERNAME_LENGTH}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          onChange={(event) => onChange(event.target.value || null)}
        />
        <p id={`${id}-hint`} className="vx-hint">
          {BULK_MESSAGES.anyQueue}
        </p>
        {error && (
          <p id={`${id}-error`} className="vx-error-text">
            {error}
          </p>
        )}
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

type Field = 'assignee' | 'disposition' | 'note';
type Faults = Partial<Record<Field, string>>;
const FIELDS: readonly Field[] = ['assignee', 'disposition', 'note'];

export function BulkActions({
  selection,
  count,
  filter,
  rows,
  allLoaded,
}: {
  selection: CaseSelection;
  count: CaseCount | undefined;
  filter: CaseFilter;
  /** The rows shown, whose queues the ticked cases are in. */
  rows: readonly CaseSummary[];
  /** No further page is left: the rows shown are every case matching. */
  allLoaded: boolean;
}) {
  const formId = useId();
  const [action, setAction] = useState<Action | null>(null);
  const [assignee, setAssignee] = useState<string | null>(null);
  const [disposition, setDisposition] = useState<CaseDisposition | null>(null);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Faults>({});
  const [jobId, setJobId] = useState<number | null>(null);
  // A role that does not work every queue (an incharge) reads its own group's only: all its cases matching are in it.
  const ownQueue = useSession((s) => (worksAllCases(s.role) ? null : s.hubCode));
  const queues = assignQueues({
    allMatching: selection.allMatching,
    ids: selection.ids,
    rows,
    allLoaded,
    filterQueue: filter.queue,
    ownQueue,
  });

  // The buttons that open the forms: Cancel gives the keyboard's focus back to the one that opened it.
  const openers = useRef(new Map<Action, HTMLButtonElement | null>());
  const form = useRef<HTMLFormElement>(null);
  // Faults shown (by the form or the server): the cursor goes to the first field to correct.
  const [toCorrect, setToCorrect] = useState(0);
  useEffect(() => {
    if (toCorrect === 0) return;
    form.current?.querySelector<HTMLElement>('[data-invalid] input, [data-invalid] textarea')?.focus();
  }, [toCorrect]);
  const fail = (found: Faults) => {
    setErrors(found);
    if (Object.keys(found).length) setToCorrect((n) => n + 1);
  };

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
    // A refusal naming a field of the form (400, e.g. an assignee who may not work the queue) shows
    // under that field; any other is toasted.
    onError: (failure) => {
      const field = refusedField(failure) as Field | undefined;
      const message = serverMessage(failure);
      if (field && FIELDS.includes(field) && message) fail({ [field]: message });
      else notifyError(failure, BULK_MESSAGES.startFailed);
    },
  });

  const chosen = selection.allMatching ? null : selection.ids.length;
  const tooMany = chosen !== null && chosen > MAX_CASE_JOB_IDS;
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

  function cancel() {
    const opener = action && openers.current.get(action);
    setErrors({});
    setAction(null);
    opener?.focus();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!action || tooMany || start.isPending) return;
    const found: Faults = {};
    if (action === 'assign' && (assignee === null || (assignee !== '' && !assignee.trim())))
      found.assignee = CASE_FORM_MESSAGES.jobAssigneeMissing;
    if (action === 'resolve' && !disposition) found.disposition = CASE_FORM_MESSAGES.dispositionMissing;
    if (action === 'resolve' && !note.trim()) found.note = CASE_FORM_MESSAGES.resolutionNoteMissing;
    fail(found);
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
              ref={(element) => {
                openers.current.set('assign', element);
              }}
              aria-expanded={action === 'assign'}
              aria-controls={action === 'assign' ? formId : undefined}
              onClick={() => open('assign')}
            >
              Assign to…
            </button>
            <button
              type="button"
              className="vx-btn"
              ref={(element) => {
                openers.current.set('resolve', element);
              }}
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
              ref={form}
              id={formId}
              className="cq-bulk__form"
              aria-label={action === 'assign' ? 'Assign cases' : 'Resolve cases'}
              onSubmit={submit}
              noValidate
            >
              {action === 'assign' ? (
                queues ? (
                  <AssigneeChoice
                    key={queues.join(',')}
                    queues={queues}
                    assignee={assignee}
                    onChange={setAssignee}
                    error={errors.assignee ?? null}
                  />
                ) : (
                  <AssigneeTyped assignee={assignee} onChange={setAssignee} error={errors.assignee ?? null} />
                )
              ) : (
                <>
                  <div className="vx-field cq-field" data-invalid={errors.disposition ? true : undefined}>
                    <SearchSelect
                      className="cq-select"
                      label="Disposition"
                      options={DISPOSITIONS}
                      value={disposition}
                      placeholder="Choose a disposition"
                      onChange={(value) => setDisposition(value as CaseDisposition | null)}
                    />
                    <FieldError id={`${formId}-disposition-error`} error={errors.disposition ?? null} />
                  </div>
                  <div className="vx-field cq-field cq-field--wide" data-invalid={errors.note ? true : undefined}>
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
                <button type="button" className="vx-btn" onClick={cancel}>
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
