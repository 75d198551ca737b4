// What the viewer may do with a case (rights from api/cases/{id}/): take it, assign it, start the
// review, resolve it with a disposition and a note, reopen it with a reason (`work`), and add
// notes (`comment`). Each change is made on the version shown (use-case-change.ts).
import { BusyButton, focusWasDropped, notifyError, toast, useSession, type CaseDetail } from '@veritas/shared';
import {
  CASE_DISPOSITION_LABELS,
  CASE_DISPOSITIONS,
  CASE_FORM_MESSAGES,
  MAX_CASE_NOTE_LENGTH,
  type CaseDisposition,
} from '@veritas/shared/case-vocabulary';
import { useQuery, useQueryClient } from '@veritas/shared/query';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { addNote, assigneesQuery, CASES_KEY } from '../api/cases';
import { assigneeLabel } from './case-text';
import { useCaseChange, type Notice } from './use-case-change';

export const ACTION_MESSAGES = {
  assigneesFailed: 'Could not load who may work this queue.',
  noteFailed: 'The note could not be added.',
} as const;

type Panel = 'assign' | 'resolve' | 'reopen';

function NoticeLine({ notice }: { notice: Notice | null }) {
  if (!notice) return null;
  return notice.kind === 'error' ? (
    <p className="vx-notice vx-notice--error" role="alert">
      {notice.text}
    </p>
  ) : (
    <p className="vx-notice vx-notice--success" role="status">
      {notice.text}
    </p>
  );
}

/** A labelled text area with its error (aria-invalid, aria-describedby). */
function TextField({
  label,
  value,
  onChange,
  error,
  autoFocus,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  autoFocus?: boolean;
}) {
  const id = useId();
  return (
    <div className="vx-field">
      <label className="vx-label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="vx-input cp-textarea"
        value={value}
        maxLength={MAX_CASE_NOTE_LENGTH}
        rows={3}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        autoFocus={autoFocus}
        onChange={(event) => onChange(event.target.value)}
      />
      {error && (
        <p id={`${id}-error`} className="vx-error-text">
          {error}
        </p>
      )}
    </div>
  );
}

function PanelForm({
  label,
  onSubmit,
  onCancel,
  submit,
  pending,
  children,
}: {
  label: string;
  onSubmit: () => void;
  onCancel: () => void;
  submit: string;
  pending: boolean;
  children: ReactNode;
}) {
  const form = useRef<HTMLFormElement>(null);
  // Each press of the submit button; after it, the first field it found to correct takes the
  // cursor, its message read with it (aria-describedby), as the console's other forms do.
  const [attempts, setAttempts] = useState(0);
  useEffect(() => {
    if (attempts > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempts]);
  const handle = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    setAttempts((n) => n + 1);
    onSubmit();
  };
  return (
    <form ref={form} className="cp-panel" aria-label={label} onSubmit={handle} noValidate>
      {children}
      <div className="cp-buttons">
        <BusyButton type="submit" className="vx-btn vx-btn-primary" busy={pending}>
          {submit}
        </BusyButton>
        <button type="button" className="vx-btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function AssignForm({
  detail,
  pending,
  onAssign,
  onCancel,
}: {
  detail: CaseDetail;
  pending: boolean;
  onAssign: (assignee: string | null) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const { case: summary } = detail;
  const assignees = useQuery(assigneesQuery(summary.queue));
  const [choice, setChoice] = useState(summary.assignee ?? '');
  const users = assignees.data ?? [];
  // The current assignee stays a choice even if the list no longer names them.
  const names = users.map((user) => user.username);
  return (
    <PanelForm
      label="Assign the case"
      submit="Assign"
      pending={pending || assignees.isPending}
      onSubmit={() => onAssign(choice || null)}
      onCancel={onCancel}
    >
      <div className="vx-field">
        <label className="vx-label" htmlFor={id}>
          Assign to
        </label>
        <select
          id={id}
          className="vx-select"
          value={choice}
          autoFocus
          aria-busy={assignees.isPending || undefined}
          aria-describedby={assignees.isError ? `${id}-error` : undefined}
          onChange={(event) => setChoice(event.target.value)}
        >
          <option value="">Unassigned</option>
          {summary.assignee && !names.includes(summary.assignee) && (
            <option value={summary.assignee}>{summary.assignee}</option>
          )}
          {users.map((user) => (
            <option key={user.username} value={user.username}>
              {assigneeLabel(user)}
            </option>
          ))}
        </select>
        {assignees.isError && (
          <p id={`${id}-error`} className="vx-error-text" role="alert">
            {ACTION_MESSAGES.assigneesFailed}
          </p>
        )}
      </div>
    </PanelForm>
  );
}

function ResolveForm({
  pending,
  onResolve,
  onCancel,
}: {
  pending: boolean;
  onResolve: (disposition: CaseDisposition, note: string) => Promise<boolean>;
  onCancel: () => void;
}) {
  const id = useId();
  const [disposition, setDisposition] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ disposition: string | null; note: string | null }>({
    disposition: null,
    note: null,
  });
  const submit = () => {
    const next = {
      disposition: disposition ? null : CASE_FORM_MESSAGES.dispositionMissing,
      note: note.trim() ? null : CASE_FORM_MESSAGES.resolutionNoteMissing,
    };
    setErrors(next);
    if (next.disposition || next.note) return;
    void onResolve(disposition as CaseDisposition, note.trim());
  };
  return (
    <PanelForm label="Resolve the case" submit="Resolve" pending={pending} onSubmit={submit} onCancel={onCancel}>
      <div className="vx-field">
        <label className="vx-label" htmlFor={id}>
          Disposition
        </label>
        <select
          id={id}
          className="vx-select"
          value={disposition}
          required
          autoFocus
          aria-invalid={errors.disposition ? true : undefined}
          aria-describedby={errors.disposition ? `${id}-error` : undefined}
          onChange={(event) => setDisposition(event.target.value)}
        >
          <option value="">Choose a disposition</option>
          {CASE_DISPOSITIONS.map((value) => (
            <option key={value} value={value}>
              {CASE_DISPOSITION_LABELS[value]}
            </option>
          ))}
        </select>
        {errors.disposition && (
          <p id={`${id}-error`} className="vx-error-text">
            {errors.disposition}
          </p>
        )}
      </div>
      <TextField label="Resolution note" value={note} onChange={setNote} error={errors.note} />
    </PanelForm>
  );
}

function ReopenForm({
  pending,
  onReopen,
  onCancel,
}: {
  pending: boolean;
  onReopen: (reason: string) => Promise<boolean>;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    const message = reason.trim() ? null : CASE_FORM_MESSAGES.reopenReasonMissing;
    setError(message);
    if (!message) void onReopen(reason.trim());
  };
  return (
    <PanelForm label="Reopen the case" submit="Reopen" pending={pending} onSubmit={submit} onCancel={onCancel}>
      <TextField label="Reason for reopening" value={reason} onChange={setReason} error={error} autoFocus />
    </PanelForm>
  );
}

/** The work on a case: Take, Assign to…, Start review, Resolve…, Reopen…. */
function WorkActions({ detail }: { detail: CaseDetail }) {
  const me = useSession((s) => s.user);
  const { case: summary } = detail;
  const { run, pending, notice } = useCaseChange(summary);
  const [panel, setPanel] = useState<Panel | null>(null);
  const toggles = useRef(new Map<Panel, HTMLButtonElement | null>());
  const actions = useRef<HTMLDivElement>(null);
  const resolved = summary.state === 'resolved';

  // The version a change was made on. Once the case shows the next one, the button or panel the
  // keyboard was in may be gone (Take, Start review, a resolved case's Resolve…): the focus, left
  // on the page, goes back to the case's actions instead.
  const changedFrom = useRef<number | null>(null);
  useEffect(() => {
    if (changedFrom.current === null || changedFrom.current === summary.version) return;
    changedFrom.current = null;
    if (focusWasDropped()) actions.current?.querySelector('button')?.focus();
  });
  const change = async (...request: Parameters<typeof run>) => {
    changedFrom.current = summary.version;
    const ok = await run(...request);
    if (!ok) changedFrom.current = null;
    return ok;
  };

  const close = (which: Panel) => {
    setPanel(null);
    toggles.current.get(which)?.focus();
  };
  const finish = async (which: Panel, made: Promise<boolean>) => {
    const ok = await made;
    // Back to the button that opened the panel, where it stays (Assign to…).
    if (ok) close(which);
    return ok;
  };
  const toggle = (which: Panel, label: string) => (
    <BusyButton
      className="vx-btn"
      ref={(element) => {
        toggles.current.set(which, element);
      }}
      aria-expanded={panel === which}
      busy={pending}
      onClick={() => setPanel(panel === which ? null : which)}
    >
      {label}
    </BusyButton>
  );

  return (
    <div className="cp-work">
      <div ref={actions} className="cp-buttons" role="group" aria-label="Case actions">
        {!resolved && me && summary.assignee !== me && (
          <BusyButton
            className="vx-btn vx-btn-primary"
            busy={pending}
            onClick={() => void change({ action: 'assign', assignee: me }, `Case #${summary.id} assigned to you`)}
          >
            Take
          </BusyButton>
        )}
        {!resolved && toggle('assign', 'Assign to…')}
        {summary.state === 'open' && (
          <BusyButton
            className="vx-btn"
            busy={pending}
            onClick={() => void change({ action: 'review' }, `Review of case #${summary.id} started`)}
          >
            Start review
          </BusyButton>
        )}
        {!resolved && toggle('resolve', 'Resolve…')}
        {resolved && toggle('reopen', 'Reopen…')}
      </div>
      {panel === 'assign' && !resolved && (
        <AssignForm
          detail={detail}
          pending={pending}
          onCancel={() => close('assign')}
          onAssign={(assignee) =>
            void finish(
              'assign',
              change(
                { action: 'assign', assignee },
                assignee ? `Case #${summary.id} assigned to ${assignee}` : `Case #${summary.id} unassigned`,
              ),
            )
          }
        />
      )}
      {panel === 'resolve' && !resolved && (
        <ResolveForm
          pending={pending}
          onCancel={() => close('resolve')}
          onResolve={(disposition, note) =>
            finish('resolve', change({ action: 'resolve', disposition, note }, `Case #${summary.id} resolved`))
          }
        />
      )}
      {panel === 'reopen' && resolved && (
        <ReopenForm
          pending={pending}
          onCancel={() => close('reopen')}
          onReopen={(reason) => finish('reopen', change({ action: 'reopen', reason }, `Case #${summary.id} reopened`))}
        />
      )}
      <NoticeLine notice={notice} />
    </div>
  );
}

/** A note on the case's timeline (no version: a note overwrites nothing). */
function NoteForm({ caseId }: { caseId: number }) {
  const client = useQueryClient();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // Each empty note refused: the field takes the cursor, its message read with it
  // (aria-describedby), as the panels' forms do.
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) form.current?.querySelector('textarea')?.focus();
  }, [refusals]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    if (!note.trim()) {
      setError(CASE_FORM_MESSAGES.noteMissing);
      setRefusals((n) => n + 1);
      return;
    }
    setError(null);
    setSending(true);
    try {
      await addNote(caseId, note.trim());
      setNote('');
      toast.success('Note added');
      void client.invalidateQueries({ queryKey: CASES_KEY });
    } catch (failure) {
      setError(notifyError(failure, ACTION_MESSAGES.noteFailed));
    } finally {
      setSending(false);
    }
  };
  return (
    <form ref={form} className="cp-note" aria-label="Add a note" onSubmit={(event) => void submit(event)} noValidate>
      <TextField label="Add note" value={note} onChange={setNote} error={error} />
      <BusyButton type="submit" className="vx-btn" busy={sending}>
        Add note
      </BusyButton>
    </form>
  );
}

export function CaseActions({ detail }: { detail: CaseDetail }) {
  const { rights } = detail;
  if (!rights.work && !rights.comment) return null;
  return (
    <section className="vx-card" aria-labelledby="cp-actions">
      <h2 id="cp-actions" className="vx-card-title">
        Actions
      </h2>
      {rights.work && <WorkActions detail={detail} />}
      {rights.comment && <NoteForm caseId={detail.case.id} />}
    </section>
  );
}
