// The Case page (/Case?id=N) against the mock API: the facts, the device's steps, the timeline,
// the actions each right offers, changes on the case's version (409: their change is shown),
// notes, photos, live refresh, and the not-found, forbidden and failed states.
import {
  deviceError,
  MemoryRouter,
  toast,
  useLocation,
  useSession,
  type CaseDetail,
  type CaseSummary,
} from '@veritas/shared';
import {
  FakeEventSource,
  makeRecord,
  mockApi,
  withFakeLiveStream,
  withQueryClient,
  type MockApi,
  type MockReply,
} from '@veritas/shared/testing';
import {
  CASE_CHANGED_MESSAGE,
  CASE_FORM_MESSAGES,
  MAX_CASE_PHOTO_BYTES,
  MAX_CASE_PHOTOS,
} from '@veritas/shared/case-vocabulary';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import CasePage, { PAGE_MESSAGES } from './case-page';
import { PHOTO_MESSAGES } from './case/case-photos';

const PAST = '2020-01-02T03:04:00.000Z';
const FUTURE = '2099-01-02T03:04:00.000Z';

function summary(change: Partial<CaseSummary> = {}): CaseSummary {
  return {
    id: 7,
    tracking_id: 'TRK-0007',
    reason: 'E008',
    state: 'open',
    disposition: null,
    queue: 'HUB01',
    assignee: null,
    due_at: FUTURE,
    opened_at: '2025-03-01T09:00:00.000Z',
    resolved_at: null,
    version: 3,
    ...change,
  };
}

function detail(change: Partial<CaseDetail> & { summary?: Partial<CaseSummary> } = {}): CaseDetail {
  const { summary: summaryChange, ...rest } = change;
  return {
    case: summary(summaryChange),
    scan: {
      by: 'wm_ravi',
      at: '2025-03-01T08:59:00.000Z',
      model: 'Pixel 8',
      manufacturer: 'Google',
      mac_address: 'AA:BB:CC:DD:EE:FF',
      hardware_id: 'HW-123',
    },
    record: makeRecord({
      tracking_id: { tracking_id: 'TRK-0007' },
      is_submit: true,
      submit_time: '2025-03-01T08:59:00.000Z',
      submitted_by: { id: 4, username: 'wm_ravi' } as never,
      device_result: 'E008',
    }),
    timeline: [],
    photos: [],
    rights: { work: true, comment: true },
    ...rest,
  };
}

let api: MockApi;
let current: CaseDetail;

function serve(initial: CaseDetail | MockReply) {
  if (Array.isArray(initial)) {
    api = mockApi().on('GET api/cases/7/', initial);
  } else {
    current = initial;
    api = mockApi().on('GET api/cases/7/', () => [200, current]);
  }
  return api;
}

function Location() {
  const { pathname, search } = useLocation();
  return <output data-testid="location">{pathname + search}</output>;
}

function renderPage(url = '/Case?id=7') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <CasePage />
      <Location />
    </MemoryRouter>,
    { wrapper: withQueryClient() },
  );
}

const loaded = () => screen.findByTestId('case');
const fact = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling as HTMLElement;
const caseCalls = () => api.requestsTo('GET api/cases/7/').length;
const actions = () => screen.queryByRole('group', { name: 'Case actions' });

let toastSuccess: jest.SpyInstance;
let toastError: jest.SpyInstance;
beforeEach(() => {
  act(() => useSession.getState().setSession({ user: 'exec_demo', role: 'executive', hubCode: 'HUB01' }));
  toastSuccess = jest.spyOn(toast, 'success');
  toastError = jest.spyOn(toast, 'error');
});
afterEach(() => {
  api.restore();
  toastSuccess.mockRestore();
  toastError.mockRestore();
});

describe('what the page shows', () => {
  test('loading, then the heading "Case #7" with a link back to All cases', async () => {
    serve(detail());
    renderPage();
    expect(screen.getByText(PAGE_MESSAGES.loading)).toBeInTheDocument();
    await loaded();
    expect(screen.getByRole('heading', { level: 1, name: 'Case #7' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All cases' })).toHaveAttribute('href', '/Cases');
  });

  test("the tab names the case by its number once it is shown, 'Case #7'; only while it loads or is missing does it say 'Case'", async () => {
    serve(detail());
    const { unmount } = renderPage();
    expect(document.title).toBe('Case · Veritas');
    await loaded();
    expect(document.title).toBe('Case #7 · Veritas');
    unmount();

    serve([404, {}]);
    renderPage();
    await screen.findByRole('alert');
    expect(document.title).toBe('Case · Veritas');
  });

  test('the facts: reason with its catalogue title and description, state, assignee, queue, due, opened', async () => {
    serve(detail({ summary: { assignee: 'exec_demo' } }));
    renderPage();
    await loaded();
    expect(fact('Reason')).toHaveTextContent('E008');
    expect(fact('Reason')).toHaveTextContent('Device Mismatch detected.');
    expect(fact('Reason').textContent).toMatch(/E008 · Device Mismatch detected\..+/);
    expect(fact('State')).toHaveTextContent('Open');
    expect(fact('Assignee')).toHaveTextContent('exec_demo');
    expect(fact('Queue')).toHaveTextContent('HUB01');
    expect(fact('Due')).not.toHaveTextContent('Overdue');
    expect(within(fact('Due')).getByText(/2099/)).toHaveAttribute('datetime', FUTURE);
    expect(fact('Opened')).toHaveTextContent('2025');
  });

  test('an unassigned case says "Unassigned"; past its due time and not resolved it is marked Overdue', async () => {
    serve(detail({ summary: { due_at: PAST } }));
    renderPage();
    await loaded();
    expect(fact('Assignee')).toHaveTextContent('Unassigned');
    expect(within(fact('Due')).getByText('Overdue')).toBeInTheDocument();
  });

  test('a resolved case shows its disposition and is not overdue', async () => {
    serve(detail({ summary: { state: 'resolved', disposition: 'returned_to_vendor', due_at: PAST } }));
    renderPage();
    await loaded();
    expect(fact('State')).toHaveTextContent('Resolved · Returned to vendor');
    expect(fact('Due')).not.toHaveTextContent('Overdue');
  });

  test('the flagging scan: who, when, scanned model, manufacturer, MAC and hardware ID', async () => {
    serve(detail());
    renderPage();
    await loaded();
    expect(fact('Scanned by')).toHaveTextContent('wm_ravi');
    expect(fact('Scanned at')).toHaveTextContent('2025');
    expect(fact('Scanned model')).toHaveTextContent('Pixel 8');
    expect(fact('Manufacturer')).toHaveTextContent('Google');
    expect(fact('MAC address')).toHaveTextContent('AA:BB:CC:DD:EE:FF');
    expect(fact('Hardware ID')).toHaveTextContent('HW-123');
  });

  test('the expected device is the record’s brand and model, or its blind pick brand and model', async () => {
    serve(detail());
    const { unmount } = renderPage();
    await loaded();
    expect(fact('Brand')).toHaveTextContent('Samsung');
    expect(fact('Model')).toHaveTextContent('Galaxy S24');
    unmount();
    api.restore();

    serve(
      detail({
        record: makeRecord({
          tracking_id: { is_Blindpick: true, Blind_brand: 'Acme', Blind_model: 'Box 1' },
        }),
      }),
    );
    renderPage();
    await loaded();
    expect(fact('Blind pick brand')).toHaveTextContent('Acme');
    expect(fact('Blind pick model')).toHaveTextContent('Box 1');
  });

  test('the device steps: Doorstep, Hub and Return centre with who and when, each pending until done', async () => {
    serve(detail());
    renderPage();
    await loaded();
    const steps = screen.getAllByTestId('device-step');
    expect(steps.map((step) => step.querySelector('.cp-step__name')?.textContent)).toEqual([
      'Doorstep',
      'Hub',
      'Return centre',
    ]);
    expect(steps[0]).toHaveTextContent(/Submitted by wm_ravi at .*2025/);
    expect(steps[1]).toHaveTextContent('pending');
    expect(steps[2]).toHaveTextContent('pending');
  });

  test('the timeline lists each entry oldest first with its time, who and what', async () => {
    const at = (minute: number) => `2025-03-01T09:${String(minute).padStart(2, '0')}:00.000Z`;
    serve(
      detail({
        timeline: [
          {
            id: 5,
            at: at(5),
            kind: 'resolved',
            by: 'exec_demo',
            note: 'Wrong unit shipped',
            details: { disposition: 'rejected' },
          },
          { id: 1, at: at(0), kind: 'opened', by: 'wm_ravi', note: null, details: null },
          { id: 2, at: at(1), kind: 'assigned', by: 'lead', note: null, details: { after: { assignee: 'exec_demo' } } },
          { id: 3, at: at(2), kind: 'review-started', by: 'exec_demo', note: null, details: null },
          { id: 4, at: at(3), kind: 'note', by: 'exec_demo', note: 'Called the customer', details: null },
          { id: 6, at: at(6), kind: 'reopened', by: 'lead', note: 'Customer disputes', details: null },
          { id: 7, at: at(7), kind: 'photo', by: 'exec_demo', note: null, details: null },
          { id: 8, at: at(8), kind: 'verified-at-hub', by: 'hub_op', note: null, details: null },
          { id: 9, at: at(9), kind: 'detached', by: 'rc_op', note: null, details: null },
          { id: 10, at: at(10), kind: 'scanned', by: 'wm_ravi', note: null, details: null },
          {
            id: 11,
            at: at(11),
            kind: 'detached',
            by: 'rc_op',
            note: null,
            details: { before: { queue: 'HUB1' }, after: { queue: 'RC1' } },
          },
          {
            id: 12,
            at: at(12),
            kind: 'detached',
            by: 'rc_op',
            note: null,
            details: { before: { queue: 'HUB1', assignee: 'inch1' }, after: { queue: 'RC1', assignee: null } },
          },
        ],
      }),
    );
    renderPage();
    await loaded();
    const list = within(screen.getByRole('region', { name: 'Timeline' })).getByRole('list');
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.cp-timeline__what')?.textContent)).toEqual([
      'Opened the case',
      'Assigned the case to exec_demo',
      'Started the review',
      'Added a note',
      'Resolved the case: Rejected',
      'Reopened the case',
      'Added a photo',
      'Verified the device at the hub',
      'Detached the device at the return centre',
      'Scanned the device again',
      // The move to the RC's queue, and out of the hands of an assignee who may not work it (cases.md).
      'Detached the device at the return centre; the case moved to queue RC1',
      'Detached the device at the return centre; the case moved to queue RC1, no longer assigned to inch1',
    ]);
    expect(items[0]).toHaveTextContent('wm_ravi');
    expect(items[0]!.querySelector('time')).toHaveAttribute('datetime', at(0));
    expect(items[3]).toHaveTextContent('Called the customer');
    expect(items[4]).toHaveTextContent('Wrong unit shipped');
    expect(items[5]).toHaveTextContent('Reason: Customer disputes');
  });

  test('a later scan on the timeline says what was scanned: result with its title, device, MAC and hardware ID as held (cases.md)', async () => {
    const scanned = (id: number, details: Record<string, unknown> | null) => ({
      id,
      at: `2025-03-01T09:0${id}:00.000Z`,
      kind: 'scanned' as const,
      by: 'wm_ravi',
      note: null,
      details,
    });
    serve(
      detail({
        timeline: [
          scanned(1, {
            result: 'E006',
            model: 'Galaxy S23',
            manufacturer: 'Samsung',
            mac_address: '11:22:33:44:55:66',
            hardware_id: 'HW-9',
            queue: 'HUB01',
          }),
          scanned(2, { result: 'E003', model: null, manufacturer: '', mac_address: null, hardware_id: 'HW-10' }),
          scanned(3, null),
        ],
      }),
    );
    renderPage();
    await loaded();
    const items = within(within(screen.getByRole('region', { name: 'Timeline' })).getByRole('list')).getAllByRole(
      'listitem',
    );
    const facts = (item: HTMLElement) =>
      [...item.querySelectorAll('dl div')].map((pair) => [
        pair.querySelector('dt')?.textContent,
        pair.querySelector('dd')?.textContent,
      ]);
    expect(items.map((item) => item.querySelector('.cp-timeline__what')?.textContent)).toEqual([
      'Scanned the device again',
      'Scanned the device again',
      'Scanned the device again',
    ]);
    expect(facts(items[0]!)).toEqual([
      ['Result', `E006 · ${deviceError('E006')!.title}`],
      ['Model', 'Galaxy S23'],
      ['Manufacturer', 'Samsung'],
      ['MAC address', '11:22:33:44:55:66'],
      ['Hardware ID', 'HW-9'],
    ]);
    // Only what the entry holds is said.
    expect(facts(items[1]!)).toEqual([
      ['Result', `E003 · ${deviceError('E003')!.title}`],
      ['Hardware ID', 'HW-10'],
    ]);
    expect(facts(items[2]!)).toEqual([]);
  });

  test('photos show as thumbnails named "Photo N of case #7"', async () => {
    const photo = (id: number) => ({
      id,
      content_type: 'image/jpeg',
      size: 1000,
      by: 'exec_demo',
      at: PAST,
      url: `api/cases/7/photos/${id}/`,
    });
    serve(detail({ photos: [photo(11), photo(12)] }));
    renderPage();
    await loaded();
    expect(screen.getByRole('img', { name: 'Photo 1 of case #7' })).toHaveAttribute(
      'src',
      expect.stringContaining('api/cases/7/photos/11/'),
    );
    expect(screen.getByRole('img', { name: 'Photo 2 of case #7' })).toBeInTheDocument();
  });
});

describe('actions per rights', () => {
  test('with neither right: no actions, no note, no photo upload', async () => {
    serve(detail({ rights: { work: false, comment: false } }));
    renderPage();
    await loaded();
    expect(actions()).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Add note' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add photo' })).not.toBeInTheDocument();
  });

  test('work on an open case: Take, Assign to…, Start review, Resolve…; no Reopen', async () => {
    serve(detail({ rights: { work: true, comment: false } }));
    renderPage();
    await loaded();
    const names = within(actions()!)
      .getAllByRole('button')
      .map((button) => button.textContent);
    expect(names).toEqual(['Take', 'Assign to…', 'Start review', 'Resolve…']);
    expect(screen.queryByRole('textbox', { name: 'Add note' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add photo' })).not.toBeInTheDocument();
  });

  test('work on a case in review already mine: Assign to… and Resolve… (no Take, no Start review)', async () => {
    serve(detail({ summary: { state: 'in_review', assignee: 'exec_demo' }, rights: { work: true, comment: false } }));
    renderPage();
    await loaded();
    const names = within(actions()!)
      .getAllByRole('button')
      .map((button) => button.textContent);
    expect(names).toEqual(['Assign to…', 'Resolve…']);
  });

  test('work on a resolved case: Reopen… only', async () => {
    serve(detail({ summary: { state: 'resolved', disposition: 'accepted' }, rights: { work: true, comment: false } }));
    renderPage();
    await loaded();
    const names = within(actions()!)
      .getAllByRole('button')
      .map((button) => button.textContent);
    expect(names).toEqual(['Reopen…']);
  });

  test('comment only: Add note and Add photo, no work actions', async () => {
    serve(detail({ rights: { work: false, comment: true } }));
    renderPage();
    await loaded();
    expect(actions()).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Add note' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add photo' })).toBeInTheDocument();
  });
});

describe('changes on the case’s version', () => {
  test('Take sends the signed-in user as assignee with the version, toasts and reads the case again', async () => {
    serve(detail());
    api.on('POST api/cases/7/assign/', () => {
      current = detail({ summary: { assignee: 'exec_demo', version: 4 } });
      return [200, current.case];
    });
    renderPage();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Take' }));
    await waitFor(() => expect(api.requestsTo('POST api/cases/7/assign/')).toHaveLength(1));
    expect(api.requestsTo('POST api/cases/7/assign/')[0]!.body).toEqual({ assignee: 'exec_demo', version: 3 });
    await waitFor(() => expect(toastSuccess).toHaveBeenCalledWith('Case #7 assigned to you'));
    await waitFor(() => expect(fact('Assignee')).toHaveTextContent('exec_demo'));
    await waitFor(() => expect(caseCalls()).toBe(2));
    expect(screen.queryByRole('button', { name: 'Take' })).not.toBeInTheDocument();
    // The button pressed is gone: the keyboard's focus goes back to the case's actions, not the page.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Assign to…' })).toHaveFocus());
  });

  test('Start review sends the version; the focus stays in the case actions once the button is gone', async () => {
    serve(detail());
    api.on('POST api/cases/7/review/', () => {
      current = detail({ summary: { state: 'in_review', version: 4 } });
      return [200, current.case];
    });
    renderPage();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Start review' }));
    await waitFor(() => expect(api.requestsTo('POST api/cases/7/review/')).toHaveLength(1));
    expect(api.requestsTo('POST api/cases/7/review/')[0]!.body).toEqual({ version: 3 });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Start review' })).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Take' })).toHaveFocus());
  });

  test('Assign to… offers the queue’s assignees and Unassigned, and sends the choice', async () => {
    serve(detail({ summary: { assignee: 'lead' } }));
    api.on('GET api/cases/assignees/', [
      200,
      {
        users: [
          { username: 'lead', role: 'incharge' },
          { username: 'exec_b', role: 'executive' },
        ],
      },
    ]);
    api.on('POST api/cases/7/assign/', [200, summary({ assignee: 'exec_b', version: 4 })]);
    renderPage();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Assign to…' }));
    const select = screen.getByRole('combobox', { name: 'Assign to' });
    await screen.findByRole('option', { name: 'exec_b (executive)' });
    expect(api.requestsTo('GET api/cases/assignees/')[0]!.config.params).toEqual({ queue: 'HUB01' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Unassigned', 'lead (incharge)', 'exec_b (executive)']);
    await userEvent.selectOptions(select, 'exec_b');
    await userEvent.click(screen.getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(api.requestsTo('POST api/cases/7/assign/')).toHaveLength(1));
    expect(api.requestsTo('POST api/cases/7/assign/')[0]!.body).toEqual({ assignee: 'exec_b', version: 3 });
    // The panel closed: the focus goes back to the button that opened it.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Assign to…' })).toHaveFocus());
  });

  test('Assign to… Unassigned sends a null assignee', async () => {
    serve(detail({ summary: { assignee: 'lead' } }));
    api.on('GET api/cases/assignees/', [200, { users: [{ username: 'lead', role: 'incharge' }] }]);
    api.on('POST api/cases/7/assign/', [200, summary({ version: 4 })]);
    renderPage();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Assign to…' }));
    await screen.findByRole('option', { name: 'lead (incharge)' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Assign to' }), '');
    await userEvent.click(screen.getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(api.requestsTo('POST api/cases/7/assign/')).toHaveLength(1));
    expect(api.requestsTo('POST api/cases/7/assign/')[0]!.body).toEqual({ assignee: null, version: 3 });
  });

  test('Resolve needs a disposition and a note: nothing is sent without them', async () => {
    serve(detail());
    api.on('POST api/cases/7/resolve/', [200, summary({ state: 'resolved', disposition: 'accepted', version: 4 })]);
    renderPage();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Resolve…' }));
    await userEvent.click(screen.getByRole('button', { name: 'Resolve' }));
    expect(screen.getByText(CASE_FORM_MESSAGES.dispositionMissing)).toBeInTheDocument();
    expect(screen.getByText(CASE_FORM_MESSAGES.resolutionNoteMissing)).toBeInTheDocument();
    // The first field to correct takes the cursor, its message read with it.
    expect(screen.getByRole('combobox', { name: 'Disposition' })).toHaveFocus();
    expect(screen.getByRole('combobox', { name: 'Disposition' })).toHaveAccessibleDescription(
      CASE_FORM_MESSAGES.dispositionMissing,
    );
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Disposition' }), 'accepted');
    await userEvent.type(screen.getByRole('textbox', { name: 'Resolution note' }), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Resolve' }));
    expect(screen.getByRole('textbox', { name: 'Resolution note' })).toHaveAccessibleDescription(
      CASE_FORM_MESSAGES.resolutionNoteMissing,
    );
    expect(screen.getByRole('textbox', { name: 'Resolution note' })).toHaveFocus();
    expect(api.requestsTo('POST api/cases/7/resolve/')).toHaveLength(0);

    await userEvent.type(screen.getByRole('textbox', { name: 'Resolution note' }), 'Matches the order');
    await userEvent.click(screen.getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(api.requestsTo('POST api/cases/7/resolve/')).toHaveLength(1));
    expect(api.requestsTo('POST api/cases/7/resolve/')[0]!.body).toEqual({
      disposition: 'accepted',
      note: 'Matches the order',
      version: 3,
    });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Resolve the case' })).not.toBeInTheDocument());
  });

  test('Reopen needs a reason, then sends it with the version', async () => {
    serve(detail({ summary: { state: 'resolved', disposition: 'accepted', version: 5 } }));
    api.on('POST api/cases/7/reopen/', [200, summary({ version: 6 })]);
    renderPage();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Reopen…' }));
    await userEvent.click(screen.getByRole('button', { name: 'Reopen' }));
    expect(screen.getByText(CASE_FORM_MESSAGES.reopenReasonMissing)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Reason for reopening' })).toHaveFocus();
    expect(api.requestsTo('POST api/cases/7/reopen/')).toHaveLength(0);
    await userEvent.type(screen.getByRole('textbox', { name: 'Reason for reopening' }), 'Customer disputes');
    await userEvent.click(screen.getByRole('button', { name: 'Reopen' }));
    await waitFor(() => expect(api.requestsTo('POST api/cases/7/reopen/')).toHaveLength(1));
    expect(api.requestsTo('POST api/cases/7/reopen/')[0]!.body).toEqual({ reason: 'Customer disputes', version: 5 });
  });

  test('a 409 shows "Someone else changed this case…", shows their change and reads the case again', async () => {
    serve(detail());
    api.on('POST api/cases/7/assign/', () => {
      current = detail({ summary: { assignee: 'lead', version: 4 } });
      return [409, { detail: 'The case changed.', case: current.case }];
    });
    renderPage();
    await loaded();
    expect(caseCalls()).toBe(1);
    await userEvent.click(screen.getByRole('button', { name: 'Take' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(CASE_CHANGED_MESSAGE);
    await waitFor(() => expect(caseCalls()).toBe(2));
    expect(fact('Assignee')).toHaveTextContent('lead');
    expect(screen.getByTestId('case')).toHaveAttribute('data-version', '4');
    expect(toastSuccess).not.toHaveBeenCalled();
  });

  test('after a 409 the next change is made on the version now shown, and the typed note is kept', async () => {
    serve(detail());
    let calls = 0;
    api.on('POST api/cases/7/resolve/', () => {
      calls += 1;
      if (calls === 1) {
        current = detail({ summary: { state: 'in_review', version: 4 } });
        return [409, { detail: 'The case changed.', case: current.case }];
      }
      return [200, summary({ state: 'resolved', disposition: 'rejected', version: 5 })];
    });
    renderPage();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Resolve…' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Disposition' }), 'rejected');
    await userEvent.type(screen.getByRole('textbox', { name: 'Resolution note' }), 'Wrong unit');
    await userEvent.click(screen.getByRole('button', { name: 'Resolve' }));
    expect(await screen.findByText(CASE_CHANGED_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Resolution note' })).toHaveValue('Wrong unit');
    await userEvent.click(screen.getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(api.requestsTo('POST api/cases/7/resolve/')).toHaveLength(2));
    expect(api.requestsTo('POST api/cases/7/resolve/')[1]!.body).toMatchObject({ version: 4 });
  });

  test('another refusal shows the server’s message', async () => {
    serve(detail());
    api.on('POST api/cases/7/review/', [403, { detail: 'Your role cannot work the cases of this queue.' }]);
    renderPage();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Start review' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your role cannot work the cases of this queue.');
    expect(toastError).toHaveBeenCalledWith('Your role cannot work the cases of this queue.');
  });
});

describe('notes', () => {
  test('Add note sends the text, clears the field and reads the case again; an empty note is not sent', async () => {
    serve(detail({ rights: { work: false, comment: true } }));
    api.on('POST api/cases/7/notes/', [
      200,
      { id: 20, at: PAST, kind: 'note', by: 'exec_demo', note: 'Called', details: null },
    ]);
    renderPage();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Add note' }));
    expect(screen.getByText(CASE_FORM_MESSAGES.noteMissing)).toBeInTheDocument();
    // The field to correct takes the cursor, its message read with it.
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Add note' })).toHaveFocus());
    expect(screen.getByRole('textbox', { name: 'Add note' })).toHaveAccessibleDescription(
      CASE_FORM_MESSAGES.noteMissing,
    );
    expect(api.requestsTo('POST api/cases/7/notes/')).toHaveLength(0);
    await userEvent.type(screen.getByRole('textbox', { name: 'Add note' }), 'Called');
    await userEvent.click(screen.getByRole('button', { name: 'Add note' }));
    await waitFor(() => expect(api.requestsTo('POST api/cases/7/notes/')).toHaveLength(1));
    expect(api.requestsTo('POST api/cases/7/notes/')[0]!.body).toEqual({ note: 'Called' });
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Add note' })).toHaveValue(''));
    expect(toastSuccess).toHaveBeenCalledWith('Note added');
    await waitFor(() => expect(caseCalls()).toBe(2));
  });

  test('while a note is sent, Add note keeps the focus, is marked unavailable and takes no second press (docs/screens.md#buttons)', async () => {
    serve(detail({ rights: { work: false, comment: true } }));
    let answer: (reply: [number, unknown]) => void = () => {};
    api.on('POST api/cases/7/notes/', () => new Promise((resolve) => (answer = resolve)));
    renderPage();
    await loaded();
    await userEvent.type(screen.getByRole('textbox', { name: 'Add note' }), 'Called');
    const button = screen.getByRole('button', { name: 'Add note' });
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveFocus();
    await userEvent.click(button);
    expect(api.requestsTo('POST api/cases/7/notes/')).toHaveLength(1);
    answer([200, { id: 20, at: PAST, kind: 'note', by: 'exec_demo', note: 'Called', details: null }]);
    await waitFor(() => expect(button).not.toHaveAttribute('aria-disabled'));
    expect(button).toHaveFocus();
  });
});

describe('photos', () => {
  const file = (name: string, type: string, size = 100) => new File([new Uint8Array(size)], name, { type });
  const input = () => screen.getByTestId<HTMLInputElement>('photo-input');
  // The browser's dialog filters by `accept`; a drop does not: the zone checks the type itself.
  const user = () => userEvent.setup({ applyAccept: false });

  test('the photo dropzone rejects a wrong type client-side, without a call', async () => {
    serve(detail());
    renderPage();
    await loaded();
    await user().upload(input(), file('notes.pdf', 'application/pdf'));
    expect(await screen.findByText(PHOTO_MESSAGES.wrongType)).toBeInTheDocument();
    expect(api.requestsTo('POST api/cases/7/photos/')).toHaveLength(0);
  });

  test('the photo dropzone rejects a photo over the size limit, without a call', async () => {
    serve(detail());
    renderPage();
    await loaded();
    await user().upload(input(), file('big.jpg', 'image/jpeg', MAX_CASE_PHOTO_BYTES + 1));
    expect(await screen.findByText(PHOTO_MESSAGES.tooLarge)).toBeInTheDocument();
    expect(api.requestsTo('POST api/cases/7/photos/')).toHaveLength(0);
  });

  test('a photo is sent as its bytes and the case is read again', async () => {
    serve(detail());
    api.on('POST api/cases/7/photos/', [
      200,
      { id: 30, content_type: 'image/png', size: 100, by: 'exec_demo', at: PAST, url: 'api/cases/7/photos/30/' },
    ]);
    renderPage();
    await loaded();
    await user().upload(input(), file('door.png', 'image/png'));
    await waitFor(() => expect(api.requestsTo('POST api/cases/7/photos/')).toHaveLength(1));
    const sent = api.requestsTo('POST api/cases/7/photos/')[0]!;
    expect(sent.body).toBeInstanceOf(File);
    expect(sent.config.headers['Content-Type']).toBe('image/png');
    await waitFor(() => expect(caseCalls()).toBe(2));
  });

  test('a photo the server refuses shows its message', async () => {
    serve(detail());
    api.on('POST api/cases/7/photos/', [415, { detail: 'The photo is not a JPEG, PNG or WebP image.' }]);
    renderPage();
    await loaded();
    await user().upload(input(), file('fake.jpg', 'image/jpeg'));
    expect(await screen.findByRole('alert')).toHaveTextContent('The photo is not a JPEG, PNG or WebP image.');
    expect(toastError).toHaveBeenCalledWith('The photo is not a JPEG, PNG or WebP image.');
  });

  test('the Add photo button is a keyboard-usable button', async () => {
    serve(detail());
    renderPage();
    await loaded();
    const button = screen.getByRole('button', { name: 'Add photo' });
    expect(button.tagName).toBe('BUTTON');
  });

  test('the Add photo hint names the types, the size limit and how many photos a case keeps (screens.md)', async () => {
    serve(detail());
    renderPage();
    await loaded();
    expect(MAX_CASE_PHOTO_BYTES).toBe(5 * 1024 * 1024);
    expect(MAX_CASE_PHOTOS).toBe(10);
    expect(screen.getByRole('button', { name: 'Add photo' })).toHaveAccessibleDescription(
      'JPEG, PNG or WebP, up to 5 MB, at most 10.',
    );
  });

  test(`the dropzone is hidden once the case has ${MAX_CASE_PHOTOS} photos`, async () => {
    const photos = Array.from({ length: MAX_CASE_PHOTOS }, (_, i) => ({
      id: i + 1,
      content_type: 'image/jpeg',
      size: 10,
      by: null,
      at: PAST,
      url: `api/cases/7/photos/${i + 1}/`,
    }));
    serve(detail({ photos }));
    renderPage();
    await loaded();
    expect(screen.queryByRole('button', { name: 'Add photo' })).not.toBeInTheDocument();
    expect(screen.getByText(PHOTO_MESSAGES.full)).toBeInTheDocument();
  });
});

describe('when the case cannot be shown', () => {
  test('404: the server\'s message, else "Case #7 was not found.", with a link to the cases', async () => {
    serve([404, { detail: 'Case 7 not found.' }]);
    const { unmount } = renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Case 7 not found.');
    expect(within(screen.getByRole('alert')).getByRole('link', { name: 'Back to all cases' })).toHaveAttribute(
      'href',
      '/Cases',
    );
    unmount();
    serve([404, {}]);
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(PAGE_MESSAGES.notFound(7));
  });

  test('403: the server\'s message, else "You may not open case #7."', async () => {
    serve([403, { detail: 'Only the roles that work cases may read them.' }]);
    const { unmount } = renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Only the roles that work cases may read them.');
    unmount();
    serve([403, {}]);
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(PAGE_MESSAGES.forbidden(7));
  });

  test('no case id in the address says so, without a call', async () => {
    serve(detail());
    renderPage('/Case?id=abc');
    expect(screen.getByRole('alert')).toHaveTextContent(PAGE_MESSAGES.noId);
    expect(api.requests).toHaveLength(0);
  });

  test('a failed load is not stuck: it shows the failure and Retry loads again', async () => {
    serve([500, {}]);
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(PAGE_MESSAGES.loadFailed);
    api.on('GET api/cases/7/', [200, detail()]);
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await loaded();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('live', () => {
  withFakeLiveStream();
  let eventId = 0;

  function startStream() {
    act(() =>
      useSession.getState().setSession({
        user: 'exec_demo',
        role: 'executive',
        hubCode: 'HUB01',
        features: ['live-events'],
      }),
    );
    act(() => FakeEventSource.latest!.open());
  }

  test('a live cases event of this case reads it again; one of another case does not', async () => {
    serve(detail());
    renderPage();
    startStream();
    await loaded();
    expect(caseCalls()).toBe(1);
    act(() => FakeEventSource.latest!.emit('cases', { action: 'updated', case: summary({ id: 8 }) }, ++eventId));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(caseCalls()).toBe(1);
    act(() => FakeEventSource.latest!.emit('cases', { action: 'assigned', case: summary({ version: 4 }) }, ++eventId));
    await waitFor(() => expect(caseCalls()).toBe(2));
  });
});
