// The Cases queue's saved views: the viewer's own views and those shared with their role; choosing
// one applies its filters. Save view stores the filters shown under a name, for oneself or a
// role; the owner of the view chosen may delete it.
import {
  BusyButton,
  CONSOLE_ROLES,
  SearchSelect,
  notifyError,
  toast,
  useSession,
  type CaseView,
  type NewCaseView,
  type SelectOption,
} from '@veritas/shared';
import { CASE_FORM_MESSAGES, MAX_CASE_VIEW_NAME_LENGTH } from '@veritas/shared/case-vocabulary';
import { useMutation, useQueryClient, useQueryError, useQueryNow } from '@veritas/shared/query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { deleteView, saveView, viewsQuery } from '../api/cases';
import { filterOfView, queryOfFilter, sameFilters, type CaseFilter } from './case-filter';

type ShareRole = NonNullable<NewCaseView['shared_with']>;

export const VIEW_MESSAGES = {
  loadFailed: 'Failed to load the saved views',
  saveFailed: 'Failed to save the view',
  deleteFailed: 'Failed to delete the view',
} as const;

const ONLY_ME = '';
const SHARE_OPTIONS: SelectOption[] = [
  { value: ONLY_ME, label: 'Only me' },
  // A view is shared with any role of the console.
  ...CONSOLE_ROLES.map((role) => ({ value: role, label: role })),
];

/** A view as the Views dropdown names it: a shared one says with whom. */
export const viewLabel = (view: CaseView): string =>
  view.shared_with ? `${view.name} (shared with ${view.shared_with})` : view.name;

const NO_VIEWS: CaseView[] = [];

export function SavedViews({ filter, onApply }: { filter: CaseFilter; onApply: (filter: CaseFilter) => void }) {
  const me = useSession((s) => s.user);
  const client = useQueryClient();
  const { data: views = NO_VIEWS, error, isPending } = useQueryNow(viewsQuery);
  useQueryError(error, (failure) => notifyError(failure, VIEW_MESSAGES.loadFailed));

  // The view last chosen, while the filters shown are still its own.
  const [chosen, setChosen] = useState<number | null>(null);
  const selected = views.find((view) => view.id === chosen && sameFilters(filterOfView(view.filters), filter)) ?? null;

  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [share, setShare] = useState<string>(ONLY_ME);
  const [nameError, setNameError] = useState<string | null>(null);
  // Each save refused for want of a name: the name takes the cursor, its message read with it.
  const nameInput = useRef<HTMLInputElement>(null);
  const [nameRefusals, setNameRefusals] = useState(0);
  useEffect(() => {
    if (nameRefusals > 0) nameInput.current?.focus();
  }, [nameRefusals]);
  const formId = useId();
  const nameErrorId = useId();
  // Where the keyboard's focus goes when what held it leaves: the form closed, back to Save view; the
  // view deleted (its Delete view with it), to the Views choice.
  const toggle = useRef<HTMLButtonElement>(null);
  const viewsChoice = useRef<HTMLDivElement>(null);
  const closeForm = () => {
    setOpen(false);
    toggle.current?.focus();
  };

  const refreshViews = () => client.invalidateQueries({ queryKey: viewsQuery.queryKey });

  const save = useMutation({
    mutationFn: saveView,
    onSuccess: async (view) => {
      toast.success(`View “${view.name}” saved.`);
      closeForm();
      setName('');
      setShare(ONLY_ME);
      setChosen(view.id);
      await refreshViews();
    },
    onError: (failure) => notifyError(failure, VIEW_MESSAGES.saveFailed, ['detail', 'message']),
  });

  const remove = useMutation({
    mutationFn: (view: CaseView) => deleteView(view.id),
    onSuccess: async (_, view) => {
      toast.success(`View “${view.name}” deleted.`);
      setChosen(null);
      viewsChoice.current?.querySelector('input')?.focus();
      await refreshViews();
    },
    onError: (failure) => notifyError(failure, VIEW_MESSAGES.deleteFailed),
  });

  function choose(value: string | null) {
    const view = views.find((candidate) => String(candidate.id) === value);
    if (!view) return;
    setChosen(view.id);
    onApply(filterOfView(view.filters));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError(CASE_FORM_MESSAGES.viewNameMissing);
      setNameRefusals((n) => n + 1);
      return;
    }
    setNameError(null);
    save.mutate({
      name: trimmed,
      filters: queryOfFilter(filter),
      shared_with: share === ONLY_ME ? null : (share as ShareRole),
    });
  }

  const options: SelectOption[] = views.map((view) => ({ value: String(view.id), label: viewLabel(view) }));

  return (
    <div className="cq-views">
      <div className="cq-views__row">
        <div className="vx-field cq-field cq-views__select" ref={viewsChoice}>
          <SearchSelect
            className="cq-select"
            label="Views"
            options={options}
            value={selected ? String(selected.id) : null}
            placeholder={isPending ? 'Loading views…' : options.length ? 'Choose a view' : 'No saved views'}
            loading={isPending}
            onChange={choose}
          />
        </div>
        <button
          ref={toggle}
          type="button"
          className="vx-btn"
          aria-expanded={open}
          aria-controls={open ? formId : undefined}
          onClick={() => setOpen((current) => !current)}
        >
          Save view
        </button>
        {selected && selected.owner === me && (
          <BusyButton className="vx-btn vx-btn-danger" busy={remove.isPending} onClick={() => remove.mutate(selected)}>
            Delete view<span className="vx-sr-only"> {selected.name}</span>
          </BusyButton>
        )}
      </div>

      {open && (
        <form id={formId} className="vx-card cq-view-form" aria-label="Save view" onSubmit={submit} noValidate>
          <div className="vx-field cq-field">
            <label className="vx-label" htmlFor={`${formId}-name`}>
              Name
            </label>
            <input
              ref={nameInput}
              id={`${formId}-name`}
              className="vx-input"
              value={name}
              maxLength={MAX_CASE_VIEW_NAME_LENGTH}
              required
              autoComplete="off"
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? nameErrorId : undefined}
              onChange={(event) => setName(event.target.value)}
            />
            {nameError && (
              <p id={nameErrorId} className="vx-error-text">
                {nameError}
              </p>
            )}
          </div>
          <div className="vx-field cq-field">
            <SearchSelect
              className="cq-select"
              label="Share with"
              options={SHARE_OPTIONS}
              value={share}
              onChange={(value) => setShare(value ?? ONLY_ME)}
            />
          </div>
          <div className="cq-view-form__actions">
            <BusyButton type="submit" className="vx-btn vx-btn-primary" busy={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save'}
            </BusyButton>
            <button type="button" className="vx-btn" onClick={closeForm}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
