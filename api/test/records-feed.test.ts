// The records feed (docs/integrations.md#records-feed): GET api/v1/records/ with a records:read key
// answers the records changed after a cursor, in commit order, each as api/get_status/ answers it;
// a record changed again moves to the feed's end; updated_since starts at a time; nothing is lost
// to a transaction that commits after a page was read (PostgreSQL's horizon).
import { build, ENGINE } from './support/build';
import { fieldApp } from './support/field-app';
import { withToken } from './support/registry';

const api = build({
  groups: [{ code: 'HUB1', organization: 'hub' }],
  users: [
    { username: 'admin1', role: 'admin' },
    { username: 'op1', role: 'operators', group: 'HUB1' },
  ],
  signIn: { admin: 'admin1' },
});
const field = fieldApp(api);

interface Change {
  changed_at: string | null;
  record: { id: number; tracking_id: { tracking_id: string }; is_submit: boolean };
}
interface Page {
  records: Change[];
  next: string;
  more: boolean;
}

let secret = '';
beforeAll(async () => {
  const answer = await api.as.admin!.post('api/integrations/keys/', {
    label: 'order system',
    scopes: ['records:read'],
    expiresOn: `${new Date().getUTCFullYear() + 1}-12-31`,
  });
  secret = answer.body.secret;
});

const feed = async (query: string): Promise<Page> => {
  const answer = await withToken(api.url, secret, 'GET', `api/v1/records/${query}`);
  expect(answer.status).toBe(200);
  return answer.body as Page;
};
const idsOf = (page: Page) => page.records.map((change) => change.record.tracking_id.tracking_id);

/** Every page from `after` to the feed's end: the tracking IDs in order and the last cursor. */
async function readAll(after: string | null, limit = 2): Promise<{ ids: string[]; next: string }> {
  const ids: string[] = [];
  let cursor = after;
  for (;;) {
    const page = await feed(`?limit=${limit}${cursor ? `&after=${cursor}` : ''}`);
    ids.push(...idsOf(page));
    cursor = page.next;
    if (!page.more) return { ids, next: cursor };
  }
}

test('the feed pages every record in the order its changes committed; a changed record moves to the end', async () => {
  const shipped = await field.ship({}, {}, {});
  const first = await readAll(null);
  expect(first.ids).toEqual(shipped);
  // Nothing changed: the cursor reads an empty page, and says so.
  expect(await feed(`?after=${first.next}`)).toEqual({ records: [], next: first.next, more: false });
  await field.submit('op1', shipped[1]!, {});
  const after = await feed(`?after=${first.next}`);
  expect(idsOf(after)).toEqual([shipped[1]]);
  expect(after.records[0]!.record.is_submit).toBe(true);
  expect(Date.parse(after.records[0]!.changed_at!)).toBeGreaterThan(Date.now() - 60_000);
  // Read from the beginning, each record once, the changed one last.
  expect((await readAll(null)).ids).toEqual([shipped[0], shipped[2], shipped[1]]);
});

test('updated_since starts at the first change made at or after that time', async () => {
  const [old] = await field.ship({});
  await new Promise((resolve) => setTimeout(resolve, 20));
  const since = new Date().toISOString();
  const [fresh] = await field.ship({});
  const page = await feed(`?updated_since=${since}`);
  expect(idsOf(page)).toEqual([fresh]);
  expect(idsOf(page)).not.toContain(old);
  // Nothing since a time to come: an empty page whose next reads what comes after.
  const later = await feed(`?updated_since=${new Date(Date.now() + 3_600_000).toISOString()}`);
  expect(later.records).toEqual([]);
  const [newest] = await field.ship({});
  expect(idsOf(await feed(`?after=${later.next}`))).toEqual([newest]);
});

test('the feed refuses a bad cursor, time or limit, and a key without records:read', async () => {
  const { next } = await readAll(null, 1000);
  const [order] = next.split('~').map(Number);
  // Where the next change will be, as an empty page gives it out: `<head>~0`.
  const head = (await feed(`?updated_since=${new Date(Date.now() + 3_600_000).toISOString()}`)).next;
  expect(head).toMatch(/^\d+~0$/);
  for (const [query, message] of [
    ['?after=xyz', 'after must be the next value of an earlier page.'],
    // Well formed but past where the next change will be: taken, it would skip changes.
    [`?after=${order! + 1_000_000}~1`, 'after must be the next value of an earlier page.'],
    // At the head but past id 0: taken, it would skip the next changes of records with lower ids.
    // (On PostgreSQL the head moves with any transaction of the database, the server's own jobs'.)
    ...(ENGINE === 'sqlite'
      ? ([[`?after=${head.replace(/~0$/, '~999999999')}`, 'after must be the next value of an earlier page.']] as const)
      : []),
    ['?after=9999999999999999999~1', 'after must be the next value of an earlier page.'],
    ['?updated_since=yesterday', 'updated_since must be a time such as 2026-11-27T09:30:00Z.'],
    ['?limit=1001', 'limit must be a whole number from 1 to 1000.'],
  ] as const) {
    const answer = await withToken(api.url, secret, 'GET', `api/v1/records/${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toBe(message);
  }
  const other = await api.as.admin!.post('api/integrations/keys/', {
    label: 'cases only',
    scopes: ['cases:read'],
    expiresOn: `${new Date().getUTCFullYear() + 1}-12-31`,
  });
  const refused = await withToken(api.url, other.body.secret, 'GET', 'api/v1/records/');
  expect(refused.status).toBe(403);
  expect(refused.body.detail).toBe('This key may not read records: it needs the scope records:read.');
});

(ENGINE === 'postgres' ? test : test.skip)(
  'a change whose transaction commits after a page was read is not left behind the cursor (PostgreSQL)',
  async () => {
    const [slow, quick] = await field.ship({}, {});
    const { next } = await readAll(null, 1000);
    // A transaction changes `slow` and stays open while `quick` is changed and committed after it.
    const client = await api.db.pg!.connect();
    try {
      await client.query('begin');
      await client.query(
        `update device_records set change_order = pg_current_xact_id()::text::bigint, changed_ms = 1 where tracking_id = $1`,
        [slow],
      );
      await field.submit('op1', quick!, {});
      // `quick` committed but a transaction older than it is still running: the page waits for it.
      const held = await feed(`?after=${next}`);
      expect(held.records).toEqual([]);
      await client.query('commit');
    } finally {
      client.release();
    }
    expect(idsOf(await feed(`?after=${next}`))).toEqual([slow, quick]);
  },
);
