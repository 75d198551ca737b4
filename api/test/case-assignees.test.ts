// api/cases/assignees/ (docs/cases.md#assigning) over real HTTP on both engines: the active users
// who may work the cases of a queue, or of every one of several queues named with commas, as the
// Case page's and the bulk actions' Assign to offer them.
import { ADMIN_USERNAME, build } from './support/build';

const api = build({
  groups: [
    { code: 'HUB1', organization: 'hub' },
    { code: 'HUB2', organization: 'hub' },
    { code: 'RC1', organization: 'RC' },
  ],
  users: [
    { username: 'exec1', role: 'executive', group: 'HUB1' },
    { username: 'inch1', role: 'incharge', group: 'HUB1' },
    { username: 'inch1b', role: 'incharge', group: 'HUB1' },
    { username: 'inch2', role: 'incharge', group: 'HUB2' },
    { username: 'ops1', role: 'central_ops' },
    { username: 'admin1', role: 'admin' },
  ],
  signIn: { admin: 'admin1', inch1: 'inch1', exec1: 'exec1', root: ADMIN_USERNAME },
});
const { as } = api;

const assignees = async (queue: string, who = 'admin') => {
  const answer = await as[who]!.get(`api/cases/assignees/?${new URLSearchParams({ queue })}`);
  expect(answer.status).toBe(200);
  return (answer.body.users as { username: string; role: string }[]).map((user) => user.username);
};

test("a queue's assignees: its incharges and the roles that work every queue, active ones only", async () => {
  const everyQueue = ['admin1', 'ops1', ADMIN_USERNAME].sort();
  expect(await assignees('HUB1')).toEqual(['inch1', 'inch1b', ...everyQueue].sort());
  // A group code in any case, as the queue filter takes it.
  expect(await assignees('hub2')).toEqual(['inch2', ...everyQueue].sort());
  await api.db.kysely.updateTable('users').set({ is_active: 0 }).where('username', '=', 'inch1b').execute();
  expect(await assignees('HUB1')).toEqual(['inch1', ...everyQueue].sort());
  await api.db.kysely.updateTable('users').set({ is_active: 1 }).where('username', '=', 'inch1b').execute();
});

test('several queues separated by commas: the users who may work every one of them (a bulk assignment)', async () => {
  const everyQueue = ['admin1', 'ops1', ADMIN_USERNAME].sort();
  expect(await assignees('HUB1,HUB2')).toEqual(everyQueue);
  expect(await assignees(' HUB1 , rc1 ,')).toEqual(everyQueue);
  // The same queue named twice is one queue.
  expect(await assignees('HUB1,hub1')).toEqual(['inch1', 'inch1b', ...everyQueue].sort());
});

test('a queue is required; its text is at most 1024 characters', async () => {
  for (const queue of ['', ' ', ',', ' , ']) {
    const answer = await as.admin!.get(`api/cases/assignees/?${new URLSearchParams({ queue })}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ field: 'queue', detail: 'queue is required.' });
  }
  const missing = await as.admin!.get('api/cases/assignees/');
  expect(missing.status).toBe(400);
  expect(missing.body).toMatchObject({ field: 'queue', detail: 'queue is required.' });
  const long = Array.from({ length: 205 }, (_, i) => `HUB${i}`).join(',');
  expect(long.length).toBeGreaterThan(1024);
  const tooLong = await as.admin!.get(`api/cases/assignees/?${new URLSearchParams({ queue: long })}`);
  expect(tooLong.status).toBe(400);
  expect(tooLong.body).toMatchObject({ field: 'queue', detail: 'queue must be at most 1024 characters.' });
});

test('who may work every queue named may ask, who alone assigns their cases; nobody else learns who works them', async () => {
  expect(await assignees('HUB1', 'inch1')).toContain('inch1b');
  const refused = [
    await as.inch1!.get('api/cases/assignees/?queue=HUB1,HUB2'),
    await as.inch1!.get('api/cases/assignees/?queue=HUB2'),
    await as.exec1!.get('api/cases/assignees/?queue=HUB1'),
  ];
  for (const answer of refused)
    expect([answer.status, answer.body.detail]).toEqual([403, 'Your role cannot work the cases of this queue.']);
});
