// Cases (docs/cases.md) over real HTTP on both engines: opened in the flagging scan's transaction,
// a later scan on the open case's timeline, every transition and refusal, the role matrix, the 409
// of a concurrent change, the queue's filters, pages, count and export, saved views, bulk jobs.
import { ADMIN_USERNAME, build } from './support/build';
import { fieldApp } from './support/field-app';
import { fieldUserOf, submitDevice } from '../src/scan/field-scans';
import { CaseJobRunner } from '../src/cases/jobs';

const api = build({
  groups: [
    { code: 'HUB1', organization: 'hub' },
    { code: 'HUB2', organization: 'hub' },
    { code: 'RC1', organization: 'RC' },
  ],
  users: [
    { username: 'op1', role: 'operators', group: 'HUB1' },
    { username: 'op2', role: 'operators', group: 'HUB1' },
    { username: 'op3', role: 'operators', group: 'HUB2' },
    { username: 'exec1', role: 'executive', group: 'HUB1' },
    { username: 'inch1', role: 'incharge', group: 'HUB1' },
    { username: 'exec2', role: 'executive', group: 'HUB2' },
    { username: 'inch2', role: 'incharge', group: 'HUB2' },
    { username: 'rc1', role: 'executive', group: 'RC1' },
    { username: 'ops1', role: 'central_ops' },
    { username: 'ops2', role: 'central_ops' },
    { username: 'admin1', role: 'admin' },
  ],
  signIn: {
    admin: 'admin1',
    ops: 'ops1',
    ops2: 'ops2',
    exec1: 'exec1',
    exec2: 'exec2',
    inch1: 'inch1',
    inch2: 'inch2',
    root: ADMIN_USERNAME,
  },
});
const { as } = api;
const field = fieldApp(api);
const withQuery = (path: string, params: Record<string, string>) => `${path}?${new URLSearchParams(params)}`;

async function casesOf(trackingId: string) {
  return api.db.kysely.selectFrom('cases').selectAll().where('tracking_id', '=', trackingId).execute();
}

/** A shipped item submitted with another model (E007): its tracking ID and case id. */
async function flagged(hub = 'HUB1', operator = 'op1'): Promise<{ id: string; caseId: number }> {
  const [id] = await field.ship({ hub });
  expect((await field.submit(operator, id!, { model: 'Galaxy S22' })).body.result).toBe('E007');
  const [row] = await casesOf(id!);
  return { id: id!, caseId: row!.id };
}

const detail = async (caseId: number, who = 'admin') => (await as[who]!.get(`api/cases/${caseId}/`)).body;

describe('opening a case', () => {
  test('a flagging doorstep scan opens exactly one case in its transaction, due by its reason', async () => {
    const [id] = await field.ship({});
    const answer = await field.submit('op1', id!, { model: 'Galaxy S22' });
    expect(answer.body.result).toBe('E007');
    const rows = await casesOf(id!);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reason: 'E007', state: 'open', queue: 'HUB1', assignee_id: null });
    expect(Date.parse(rows[0]!.due_at) - Date.parse(rows[0]!.opened_at)).toBe(72 * 3_600_000);
    const body = await detail(rows[0]!.id);
    expect(body.scan).toMatchObject({ by: 'op1', model: 'Galaxy S22' });
    expect(body.record.tracking_id.tracking_id).toBe(id);
    expect(body.timeline.map((e: { kind: string }) => e.kind)).toEqual(['opened']);
    const audit = await api.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'case.opened')
      .where('target_id', '=', String(rows[0]!.id))
      .execute();
    expect(audit).toHaveLength(1);
    // The scanner's client address, as every entry of a user's action names it (docs/audit.md).
    expect(audit[0]).toMatchObject({
      actor_name: 'op1',
      outcome: 'success',
      address: expect.stringMatching(/127\.0\.0\.1/),
    });
  });

  test('a passing scan opens no case', async () => {
    const [id] = await field.ship({});
    expect((await field.submit('op1', id!)).body.result).toBe('passed');
    expect(await casesOf(id!)).toHaveLength(0);
  });

  test('a later scan of the item adds to the open case: one open case per tracking ID', async () => {
    const { id, caseId } = await flagged();
    expect((await field.submit('op1', id, { model: 'Galaxy S21' })).body.result).toBe('E007');
    expect(await casesOf(id)).toHaveLength(1);
    const body = await detail(caseId);
    expect(body.timeline.map((e: { kind: string }) => e.kind)).toEqual(['opened', 'scanned']);
  });

  test('two flagging submissions of one item at once: both answered, one case, the later scan on its timeline', async () => {
    // On PostgreSQL the second waits for the record's lock, then read the cases as they were before
    // the first's case: cases_one_open refused its insert (a 500) before it joined that case.
    for (const id of await field.ship({}, {}, {}, {})) {
      const mac = await field.macOf();
      const answers = await Promise.all([1, 2].map(() => field.submit('op1', id, { model: 'Galaxy S22', mac })));
      expect(answers.map((answer) => [answer.status, answer.body.result])).toEqual([
        [200, 'E007'],
        [200, 'E007'],
      ]);
      const rows = await casesOf(id);
      expect(rows).toHaveLength(1);
      const body = await detail(rows[0]!.id);
      expect(body.timeline.map((e: { kind: string }) => e.kind)).toEqual(['opened', 'scanned']);
    }
  });

  test('another operator’s claim (E003) is refused as before and opens a case', async () => {
    const [id] = await field.ship({});
    expect((await field.submit('op1', id!)).body.result).toBe('passed');
    const refused = await field.submit('op2', id!);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('E003');
    const rows = await casesOf(id!);
    expect(rows.map((row) => row.reason)).toEqual(['E003']);
  });

  test('a hub scan of another unit (E008) is refused and opens a case in the hub’s queue', async () => {
    const [id] = await field.ship({});
    await field.submit('op1', id!, { hardware: 'HW-A' });
    const refused = await field.verify('verify_hub', 'exec1', id!, 'HW-B');
    expect(refused.status).toBe(409);
    expect((await casesOf(id!)).map((row) => [row.reason, row.queue])).toEqual([['E008', 'HUB1']]);
  });

  test('a passing hub verification is recorded on the case and does not resolve it; detachment moves it to the RC', async () => {
    const { id, caseId } = await flagged();
    expect((await field.verify('verify_hub', 'exec1', id)).status).toBe(200);
    let body = await detail(caseId);
    expect(body.case.state).toBe('open');
    expect(body.timeline.map((e: { kind: string }) => e.kind)).toEqual(['opened', 'verified-at-hub']);
    expect((await field.verify('verify_rc', 'rc1', id)).status).toBe(200);
    body = await detail(caseId);
    expect(body.case.queue).toBe('RC1');
    expect(body.timeline.at(-1).kind).toBe('detached');
  });

  test('a detachment leaves the case in the RC queue when its assignee may not work it; one who may keeps it', async () => {
    const assignThenDetach = async (assignee: string) => {
      const { id, caseId } = await flagged();
      const version = (await detail(caseId)).case.version;
      expect((await as.admin!.post(`api/cases/${caseId}/assign/`, { assignee, version })).status).toBe(200);
      expect((await field.verify('verify_hub', 'exec1', id)).status).toBe(200);
      expect((await field.verify('verify_rc', 'rc1', id)).status).toBe(200);
      return detail(caseId);
    };
    // The hub's incharge may not work RC1's cases: the case goes back to the queue, as its timeline says.
    const hubs = await assignThenDetach('inch1');
    expect([hubs.case.queue, hubs.case.assignee]).toEqual(['RC1', null]);
    expect(hubs.timeline.at(-1)).toMatchObject({
      kind: 'detached',
      details: { before: { queue: 'HUB1', assignee: 'inch1' }, after: { queue: 'RC1', assignee: null } },
    });
    // central_ops works every queue: the case stays theirs.
    const central = await assignThenDetach('ops1');
    expect([central.case.queue, central.case.assignee]).toEqual(['RC1', 'ops1']);
    expect(central.timeline.at(-1).details).toEqual({ before: { queue: 'HUB1' }, after: { queue: 'RC1' } });
  });

  test('a failed case write rolls the scan back', async () => {
    const [id] = await field.ship({});
    const operator = (await fieldUserOf(
      api.db,
      (await api.db.kysely.selectFrom('users').select('id').where('username', '=', 'op1').executeTakeFirstOrThrow()).id,
    ))!;
    const mac = await field.macOf();
    await api.db.kysely.schema.alterTable('case_events').renameTo('case_events_away').execute();
    try {
      // The error's class may come from another test file's module registry: its message is what counts.
      const failure: unknown = await submitDevice(api.db, operator, {
        tracking_id: id!,
        mac_address: mac,
        model: 'Galaxy S22',
        hardware_id: 'HW-1',
      }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(String((failure as { message?: unknown } | null)?.message)).toMatch(/case_events/);
    } finally {
      await api.db.kysely.schema.alterTable('case_events_away').renameTo('case_events').execute();
    }
    const record = await api.db.kysely
      .selectFrom('device_records')
      .select(['is_submit', 'device_result'])
      .where('tracking_id', '=', id!)
      .executeTakeFirstOrThrow();
    expect(record).toEqual({ is_submit: 0, device_result: null });
    expect(await casesOf(id!)).toHaveLength(0);
  });
});

describe('working a case', () => {
  test('take, review, resolve with a note, reopen with a reason: each on the timeline and in the audit trail', async () => {
    const { caseId } = await flagged();
    let summary = (await detail(caseId)).case;
    let answer = await as.inch1!.post(`api/cases/${caseId}/assign/`, { assignee: 'inch1', version: summary.version });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ assignee: 'inch1', version: summary.version + 1 });
    summary = answer.body;
    answer = await as.inch1!.post(`api/cases/${caseId}/review/`, { version: summary.version });
    expect(answer.body.state).toBe('in_review');
    summary = answer.body;
    expect(
      (
        await as.inch1!.post(`api/cases/${caseId}/resolve/`, {
          disposition: 'quarantined',
          note: ' ',
          version: summary.version,
        })
      ).status,
    ).toBe(400);
    answer = await as.inch1!.post(`api/cases/${caseId}/resolve/`, {
      disposition: 'quarantined',
      note: 'Held at BLR',
      version: summary.version,
    });
    expect(answer.body).toMatchObject({ state: 'resolved', disposition: 'quarantined' });
    summary = answer.body;
    expect(
      (
        await as.inch1!.post(`api/cases/${caseId}/resolve/`, {
          disposition: 'accepted',
          note: 'again',
          version: summary.version,
        })
      ).status,
    ).toBe(409);
    expect((await as.inch1!.post(`api/cases/${caseId}/reopen/`, { reason: '', version: summary.version })).status).toBe(
      400,
    );
    answer = await as.inch1!.post(`api/cases/${caseId}/reopen/`, {
      reason: 'Wrong disposition',
      version: summary.version,
    });
    expect(answer.body).toMatchObject({ state: 'open', disposition: null });
    const body = await detail(caseId);
    expect(body.timeline.map((e: { kind: string }) => e.kind)).toEqual([
      'opened',
      'assigned',
      'review-started',
      'resolved',
      'reopened',
    ]);
    const actions = await api.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'outcome'])
      .where('target_kind', '=', 'case')
      .where('target_id', '=', String(caseId))
      .orderBy('seq')
      .execute();
    // The second resolve's 409 is recorded too, naming the case its path names.
    expect(actions.map((a) => `${a.action} ${a.outcome}`)).toEqual([
      'case.opened success',
      'case.assigned success',
      'case.review-started success',
      'case.resolved success',
      'case.resolved refused',
      'case.reopened success',
    ]);
  });

  test('a change made on an old version answers 409 with the case as it now is', async () => {
    const { caseId } = await flagged();
    const { version } = (await detail(caseId)).case;
    const [first, second] = await Promise.all([
      as.ops!.post(`api/cases/${caseId}/assign/`, { assignee: 'ops1', version }),
      as.ops2!.post(`api/cases/${caseId}/assign/`, { assignee: 'ops2', version }),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 409]);
    const refused = first.status === 409 ? first : second;
    const winner = first.status === 200 ? first : second;
    expect(refused.body.case).toEqual(winner.body);
    // The words the console shows (docs/errors.md#cases).
    expect(refused.body.detail).toBe('Someone else changed this case; it now shows their change.');
  });

  test('malformed input to the cases calls is told what is wrong, in the rule’s words', async () => {
    const { id, caseId } = await flagged();
    // Due times: a whole number of hours from 1 to 8760 (docs/cases.md#due-times).
    for (const hours of [0, 8761, 1.5, '24', null]) {
      const answer = await as.root!.post('api/cases/due_times/', { due_hours: { E005: hours } });
      expect([hours, answer.status, answer.body.detail]).toEqual([
        hours,
        400,
        'Each due time is a whole number of hours from 1 to 8760.',
      ]);
    }
    // A repeated tracking_id is a list where text is due (docs/errors.md).
    const repeated = await as.admin!.get(`api/cases/of/?tracking_id=${id}&tracking_id=${id}`);
    expect([repeated.status, repeated.body.detail, repeated.body.field]).toEqual([
      400,
      'tracking_id must be text.',
      'tracking_id',
    ]);
    // A bulk job names its cases or their filters: neither, or both, is told which.
    const neither = await as.admin!.post('api/cases/jobs/', { action: 'assign', assignee: null });
    expect([neither.status, neither.body.detail]).toEqual([400, 'Name the cases (ids) or the filters they match.']);
    const both = await as.admin!.post('api/cases/jobs/', {
      action: 'assign',
      assignee: null,
      ids: [caseId],
      filters: {},
    });
    expect([both.status, both.body.detail]).toEqual([400, 'Name the cases (ids) or the filters they match, not both.']);
  });

  test('a case is assigned only to a user who may work its queue', async () => {
    const { caseId } = await flagged();
    const { version } = (await detail(caseId)).case;
    const answer = await as.admin!.post(`api/cases/${caseId}/assign/`, { assignee: 'inch2', version });
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe('assignee');
  });

  test('notes: whoever reads the case comments; a note needs text', async () => {
    const { caseId } = await flagged();
    expect((await as.exec1!.post(`api/cases/${caseId}/notes/`, { note: 'Customer called' })).status).toBe(201);
    expect((await as.exec1!.post(`api/cases/${caseId}/notes/`, { note: '' })).status).toBe(400);
    expect((await detail(caseId)).timeline.at(-1)).toMatchObject({
      kind: 'note',
      by: 'exec1',
      note: 'Customer called',
    });
  });
});

describe('who may do what (docs/screens.md#cases-rights)', () => {
  test('the role matrix', async () => {
    const { id, caseId } = await flagged('HUB1');
    const version = async () => (await detail(caseId)).case.version;
    // Reading: admins, central_ops, the hub's incharge and executive; not another hub's.
    for (const who of ['admin', 'ops', 'inch1', 'exec1'])
      expect((await as[who]!.get(`api/cases/${caseId}/`)).status).toBe(200);
    for (const who of ['exec2', 'inch2']) expect((await as[who]!.get(`api/cases/${caseId}/`)).status).toBe(404);
    // Working: not an executive, not another hub's incharge.
    expect((await as.exec1!.post(`api/cases/${caseId}/review/`, { version: await version() })).status).toBe(403);
    // The refusal's audit entry names the case its path names, as the case's own entries do; an id
    // that names no case, by the id (docs/audit.md#refusals).
    expect((await as.exec1!.post('api/cases/99999/review/', { version: 1 }, { xsrf: false })).status).toBe(403);
    expect(
      await api.db.kysely
        .selectFrom('audit_log')
        .select(['target_kind', 'target_id', 'target_label'])
        .where('action', '=', 'case.review-started')
        .where('outcome', '=', 'refused')
        .where('actor_name', '=', 'exec1')
        .orderBy('seq')
        .execute(),
    ).toEqual([
      { target_kind: 'case', target_id: String(caseId), target_label: `${id} (E007)` },
      { target_kind: 'case', target_id: '99999', target_label: '#99999' },
    ]);
    expect((await as.inch2!.post(`api/cases/${caseId}/review/`, { version: await version() })).status).toBe(404);
    expect((await as.ops!.post(`api/cases/${caseId}/review/`, { version: await version() })).status).toBe(200);
    // The queue: an executive sees its hub's cases only.
    const queue = (await as.exec2!.get(withQuery('api/cases/', { state: 'all', limit: '200' }))).body.cases;
    expect(queue.every((c: { queue: string }) => c.queue === 'HUB2')).toBe(true);
    // Due times: a super admin's.
    expect((await as.admin!.post('api/cases/due_times/', { due_hours: { E005: 12 } })).status).toBe(403);
    expect((await as.root!.post('api/cases/due_times/', { due_hours: { E005: 12 } })).body.due_hours.E005).toBe(12);
    expect((await as.root!.post('api/cases/due_times/', { due_hours: { E001: 12 } })).status).toBe(400);
    // A save that changes no due time is no change to record.
    const dueTimeEntries = () =>
      api.db.kysely
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('action', '=', 'case.due-times-changed')
        .executeTakeFirstOrThrow();
    const recorded = Number((await dueTimeEntries()).n);
    for (const due_hours of [{}, { E005: 12 }])
      expect((await as.root!.post('api/cases/due_times/', { due_hours })).status).toBe(200);
    expect(Number((await dueTimeEntries()).n)).toBe(recorded);
    // Bulk jobs: not an executive.
    expect((await as.exec1!.post('api/cases/jobs/', { action: 'assign', ids: [caseId], assignee: null })).status).toBe(
      403,
    );
    // Operators cannot use the console at all.
    const operator = await api.signIn('op1').catch(() => null);
    expect(operator).toBeNull();
  });
});

describe('the queue', () => {
  test('filters, pages by due time with a cursor, count and export', async () => {
    for (let n = 0; n < 5; n++) await flagged('HUB2', 'op3');
    const page = await as.admin!.get(withQuery('api/cases/', { queue: 'hub2', reason: 'E007', limit: '2' }));
    expect(page.status).toBe(200);
    expect(page.body.cases).toHaveLength(2);
    const all = [...page.body.cases];
    let next = page.body.next;
    while (next) {
      const more = await as.admin!.get(
        withQuery('api/cases/', { queue: 'hub2', reason: 'E007', limit: '2', after: next }),
      );
      all.push(...more.body.cases);
      next = more.body.next;
    }
    expect(all.length).toBeGreaterThanOrEqual(5);
    const dues = all.map((c) => `${c.due_at}~${String(c.id).padStart(10, '0')}`);
    expect(dues).toEqual([...dues].sort());
    const count = await as.admin!.get(withQuery('api/cases/count/', { queue: 'HUB2', reason: 'E007' }));
    expect(count.body).toEqual({ total: all.length, capped: false });
    const csv = await as.admin!.get(withQuery('api/cases/export/', { queue: 'HUB2' }));
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(String(csv.body).split('\r\n')[0]).toContain('Case,Tracking ID,Reason');
    expect((await as.admin!.get(withQuery('api/cases/', { reason: 'E001' }))).status).toBe(400);
    expect((await as.admin!.get(withQuery('api/cases/', { after: 'nonsense' }))).status).toBe(400);
  });

  test('overdue: past its due time and not resolved', async () => {
    const { caseId } = await flagged('HUB2', 'op3');
    await api.db.kysely
      .updateTable('cases')
      .set({ due_at: '2020-01-01T00:00:00.000Z' })
      .where('id', '=', caseId)
      .execute();
    const overdue = await as.admin!.get(withQuery('api/cases/', { overdue: '1', limit: '200' }));
    expect(overdue.body.cases.map((c: { id: number }) => c.id)).toContain(caseId);
    expect((await as.admin!.get(withQuery('api/cases/summary/', { hub: 'HUB2' }))).body.overdue).toBeGreaterThanOrEqual(
      1,
    );
  });

  test('from and to: opened on or after / on or before those days (UTC), up to the calendar’s last day', async () => {
    const { caseId } = await flagged('HUB2', 'op3');
    const openedAt = async (at: string) =>
      api.db.kysely.updateTable('cases').set({ opened_at: at }).where('id', '=', caseId).execute();
    const found = async (filters: Record<string, string>) => {
      const page = await as.admin!.get(withQuery('api/cases/', { ...filters, state: 'all', limit: '200' }));
      return page.body.cases.some((c: { id: number }) => c.id === caseId);
    };
    await openedAt('2026-03-10T23:59:59.999Z');
    expect(await found({ to: '2026-03-10' })).toBe(true);
    expect(await found({ to: '2026-03-09' })).toBe(false);
    expect(await found({ to: '9999-12-31' })).toBe(true);
    expect((await as.admin!.get(withQuery('api/cases/count/', { to: '9999-12-31', state: 'all' }))).body.total).toBe(
      (await as.admin!.get(withQuery('api/cases/count/', { state: 'all' }))).body.total,
    );
    await openedAt('2026-03-11T00:00:00.000Z');
    expect(await found({ to: '2026-03-10' })).toBe(false);
    expect(await found({ from: '2026-03-11', to: '2026-03-11' })).toBe(true);
  });

  test('the signed-in user’s open cases for the top bar', async () => {
    const { caseId } = await flagged();
    const { version } = (await detail(caseId)).case;
    const before = (await as.inch1!.get(withQuery('api/cases/summary/', { mine: '1' }))).body.open;
    await as.inch1!.post(`api/cases/${caseId}/assign/`, { assignee: 'inch1', version });
    expect((await as.inch1!.get(withQuery('api/cases/summary/', { mine: '1' }))).body.open).toBe(before + 1);
  });
});

test('the rule: a filter of a day not in the calendar, a cursor not as the server writes it, a job or view id not a number: 400 saying which', async () => {
  for (const [path, query, message] of [
    ['api/cases/count/', { from: '2026-02-30' }, 'from must be a day, YYYY-MM-DD.'],
    ['api/cases/', { to: '2026-13-01' }, 'to must be a day, YYYY-MM-DD.'],
    ['api/cases/', { after: '2026-99-19T12:24:51.110Z~10' }, 'after must be the next value of an earlier page.'],
    // Of the cursor's form, but a day no due time has (30 February).
    ['api/cases/', { after: '2026-02-30T00:00:00.000Z~1' }, 'after must be the next value of an earlier page.'],
    ['api/cases/jobs/abc/', {}, 'The job id must be a number.'],
  ] as const) {
    const answer = await as.admin!.get(withQuery(path, query));
    expect([path, answer.status, answer.body.detail]).toEqual([path, 400, message]);
  }
  const view = await as.admin!.post('api/cases/views/', {
    name: 'Leap',
    filters: { from: '2026-02-30' },
    shared_with: null,
  });
  expect([view.status, view.body.detail]).toEqual([400, 'from must be a day, YYYY-MM-DD.']);
  const deleted = await as.admin!.post('api/cases/views/abc/delete/', {});
  expect([deleted.status, deleted.body.detail]).toEqual([400, 'The view id must be a number.']);
  // A day that is one, and an empty one (any), are taken.
  expect((await as.admin!.get(withQuery('api/cases/count/', { from: '2028-02-29', to: '' }))).status).toBe(200);
});

describe('saved views', () => {
  test('a view shared with central_ops appears for them; one’s own only for oneself', async () => {
    const shared = await as.admin!.post('api/cases/views/', {
      name: 'Fraud at HUB1',
      filters: { reason: 'E005', queue: 'HUB1' },
      shared_with: 'central_ops',
    });
    expect(shared.status).toBe(201);
    await as.admin!.post('api/cases/views/', { name: 'Mine', filters: { assignee: 'me' }, shared_with: null });
    expect((await as.admin!.post('api/cases/views/', { name: 'Mine', filters: {}, shared_with: null })).status).toBe(
      409,
    );
    // The refusal names the view, as its entries do (docs/cases.md).
    expect(
      await api.db.kysely
        .selectFrom('audit_log')
        .select(['target_kind', 'target_label'])
        .where('action', '=', 'case.view-saved')
        .where('outcome', '=', 'refused')
        .execute(),
    ).toEqual([{ target_kind: 'case-view', target_label: 'Mine' }]);
    const seen = (await as.ops!.get('api/cases/views/')).body.views.map((v: { name: string }) => v.name);
    expect(seen).toContain('Fraud at HUB1');
    expect(seen).not.toContain('Mine');
    expect((await as.ops!.post(`api/cases/views/${shared.body.id}/delete/`, {})).status).toBe(403);
    expect((await as.admin!.post(`api/cases/views/${shared.body.id}/delete/`, {})).status).toBe(200);
    // Audited: the refusal names the view its path names; the deletion, what the view was.
    const entries = await api.db.kysely
      .selectFrom('audit_log')
      .select(['outcome', 'actor_name', 'target_label', 'details'])
      .where('action', '=', 'case.view-deleted')
      .where('target_kind', '=', 'case-view')
      .where('target_id', '=', String(shared.body.id))
      .orderBy('seq')
      .execute();
    expect(entries.map((e) => [e.outcome, e.actor_name, e.target_label])).toEqual([
      ['refused', 'ops1', 'Fraud at HUB1'],
      ['success', 'admin1', 'Fraud at HUB1'],
    ]);
    expect(JSON.parse(entries[1]!.details!)).toEqual({
      before: { filters: { reason: 'E005', queue: 'HUB1' }, shared_with: 'central_ops' },
      after: null,
    });
  });
});

describe('bulk jobs', () => {
  const waitForJob = async (id: number) => {
    for (let n = 0; n < 200; n++) {
      const job = (await as.admin!.get(`api/cases/jobs/${id}/`)).body;
      if (job.state === 'done') return job;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('job did not finish');
  };

  test('resolve every case matching the filters as one job, each changed and audited on its own', async () => {
    const ids: number[] = [];
    for (let n = 0; n < 4; n++) ids.push((await flagged('HUB2', 'op3')).caseId);
    const started = await as.admin!.post('api/cases/jobs/', {
      action: 'resolve',
      filters: { queue: 'HUB2' },
      disposition: 'recycled',
      note: 'Batch of scrap',
    });
    expect(started.status).toBe(202);
    const job = await waitForJob(started.body.id);
    expect(job.done + job.skipped).toBe(job.total);
    for (const id of ids) expect((await detail(id)).case).toMatchObject({ state: 'resolved', disposition: 'recycled' });
    const audited = await api.db.kysely
      .selectFrom('audit_log')
      .select('target_id')
      .where('action', '=', 'case.resolved')
      .where('target_id', 'in', ids.map(String))
      .execute();
    expect(audited).toHaveLength(ids.length);
  });

  test('the rule: a bulk assignment to a user who is unknown or may work none of its queues is refused as one is (400), no job made', async () => {
    const { caseId } = await flagged('HUB1');
    const jobsBefore = await api.db.kysely.selectFrom('case_jobs').select('id').execute();
    for (const [assignee, message] of [
      ['nobody_x', 'User nobody_x not found.'],
      ['exec1', 'User exec1 cannot work the cases of queue HUB1.'],
      ['inch2', 'User inch2 cannot work the cases of queue HUB1.'],
    ] as const) {
      const refused = await as.inch1!.post('api/cases/jobs/', { action: 'assign', ids: [caseId], assignee });
      expect([assignee, refused.status, refused.body.detail, refused.body.field]).toEqual([
        assignee,
        400,
        message,
        'assignee',
      ]);
    }
    expect(await api.db.kysely.selectFrom('case_jobs').select('id').execute()).toEqual(jobsBefore);
    // One who may work one of the job's queues: accepted; the cases of the others are skipped.
    const { caseId: other } = await flagged('HUB2', 'op3');
    const mixed = await as.admin!.post('api/cases/jobs/', {
      action: 'assign',
      ids: [caseId, other],
      assignee: 'inch1',
    });
    expect(mixed.status).toBe(202);
    expect(await waitForJob(mixed.body.id)).toMatchObject({ total: 2, done: 1, skipped: 1 });
  });

  test('a job taken over after its runner died changes no case twice', async () => {
    const ids: number[] = [];
    for (let n = 0; n < 3; n++) ids.push((await flagged('HUB1')).caseId);
    // The first case's change committed before the runner died: its item is done, the lease held by the dead runner.
    const { version } = (await detail(ids[0]!)).case;
    await as.admin!.post(`api/cases/${ids[0]}/assign/`, { assignee: 'ops1', version });
    const jobId = (
      await api.db.kysely
        .insertInto('case_jobs')
        .values({
          action: 'assign',
          params: JSON.stringify({
            assignee: 'ops1',
            actor: { id: 1, username: ADMIN_USERNAME, role: 'super_admin', groupCode: null, address: null },
          }),
          created_by_id: 1,
          created_at: new Date().toISOString(),
          state: 'running',
          total: 3,
          done: 1,
          lease_owner: 'dead-runner',
          lease_until_ms: Date.now() - 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await api.db.kysely
      .insertInto('case_job_items')
      .values(
        ids.map((caseId, n) => ({ job_id: jobId, case_id: caseId, outcome: n === 0 ? ('changed' as const) : null })),
      )
      .execute();
    await new CaseJobRunner(api.db, console).runAll();
    for (const id of ids) {
      const assigned = (await detail(id)).timeline.filter((e: { kind: string }) => e.kind === 'assigned');
      expect(assigned).toHaveLength(1);
      expect((await detail(id)).case.assignee).toBe('ops1');
    }
    const job = await api.db.kysely
      .selectFrom('case_jobs')
      .selectAll()
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ state: 'done', done: 3 });
  });
});
