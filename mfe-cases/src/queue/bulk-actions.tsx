// The Cases queue's bulk actions (roles that may run jobs): a bar saying what is selected, and the
// form that has the cases ticked, or every case matching the filters, assigned or resolved by a job
// of api/cases/jobs/, whose progress (job-progress.tsx) shows until it is done; then the queue is
// read again.
import {
  BusyButton,
  SearchSelect,
  notifyError,
  refusedField,
  serverMessage,
  useSession,
  type CaseCount,
  type CaseSummary,
  type NewCaseJob,
  type SelectOption,
} from '@veritas/shared';
import {
  CASE_DISPOSITIONS,
  CASE_DISPOSITION_LABELS,
  CASE_FORM_MESSAGES,
  MAX_BULK_CASES,
  MAX_CASE_JOB_IDS,
  MAX_CASE_NOTE_LENGTH,
  worksAllCases,
  type CaseDisposition,
} from '@veritas/shared/case-vocabulary';
import { useMutation } from '@veritas/shared/query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { startJob } from '../api/cases';
import { AssigneeChoice, AssigneeTyped, FieldError, assignQueues } from './assignee-fields';
import { BULK_MESSAGES, casesText, numberText } from './bulk-text';
import { queryOfFilter, type CaseFilter } from './case-filter';
import { JobProgress } from './job-progress';
import type { CaseSelection } from './use-case-selection';

type Action = 'assign' | 'resolve';

const DISPOSITIONS: SelectOption[] = CASE_DISPOSITIONS.map((value) => ({
  value,
  label: CASE_DISPOSITION_LABELS[value],
}));

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
      ? `All matching cases selected (at most ${numberText(MAX_BULK_CASES)})`
      : `All ${casesText(matching)} matching selected`
    : `${numberText(selection.ids.length)} selected`;
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
                  ? `Select all matching (at most ${numberText(MAX_BULK_CASES)})`
                  : `Select all ${numberText(matching)} matching`}
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
