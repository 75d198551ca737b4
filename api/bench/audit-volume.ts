// Benchmark volume for the audit trail: millions of realistic entries appended in bulk to
// audit_log, forming a valid chain (seq contiguous after the current head, created_ms never
// decreasing, each hash computed by the trail's own entryHash), so audit/verify/ holds over them.
//
// The mix is a console's over ~400 days: mostly sign-ins and sign-outs of a few thousand users
// (user0001…, a few of them very active, most rarely seen), failed sign-ins under the names
// tried, sign-ins refused by the throttle, and the admins' changes to users, brands, the exclude
// list, uploads, reports and remotes with their targets and details ({before, after} for a
// change); now and then a field user refused an admin's call.
//
// The load is as fast as each engine allows: on PostgreSQL one COPY in a transaction that holds
// the table (EXCLUSIVE: readers go on, writers wait), on SQLite a prepared multi-row INSERT in
// large transactions, each checking that nobody appended meanwhile. When the load is at least as
// large as what the table holds, its secondary indexes are dropped and built again at the end (one
// sort each instead of millions of inserts). Rows are generated as they are written: memory stays
// flat at any count.
import {
  type AuditAction,
  type AuditActorKind,
  type AuditOutcome,
  type AuditTargetKind,
  type Role,
} from '@veritas/shared/domain';
import { seededRandom, type RandomSource } from '@veritas/shared/testing/records';
import { GENESIS_HASH, entryHash } from '../src/audit/chain';
import type { AuditRow } from '../src/audit/trail';
import { copyRows } from '../src/db/copy-rows';
import type { Db } from '../src/db/schema';
import { secondaryIndexes } from '../seed/volume-data';

/** The remotes the entries name: the workspace's, as they are today (any names would do). */
const REMOTE_NAMES = ['dashboard', 'devices', 'users', 'data', 'whitelabel', 'audit'] as const;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface AuditVolumeOptions {
  entries: number;
  seed?: number;
  /** How many distinct users act (default 3,000: user0001…user3000). */
  users?: number;
  /** The days the entries spread over, ending at `now` (default 400). */
  days?: number;
  now?: number;
  /** Told after each batch stored, with the number of entries stored so far. */
  progress?: (stored: number) => void;
}

export interface AuditLoadResult {
  /** The first and last seq written (0 and the head's seq when nothing was). */
  first: number;
  last: number;
  /** Generating, hashing and inserting the rows. */
  insertMs: number;
  /** Building the secondary indexes again (0 when they were kept) and the planner's statistics. */
  indexMs: number;
  /** Whether the secondary indexes were dropped for the load. */
  rebuiltIndexes: boolean;
}

/** The columns of audit_log in the order the loaders write them. */
const COLUMNS = [
  'seq',
  'created_ms',
  'actor_kind',
  'actor_id',
  'actor_name',
  'actor_role',
  'address',
  'action',
  'target_kind',
  'target_id',
  'target_label',
  'outcome',
  'details',
  'prev_hash',
  'hash',
] as const satisfies readonly (keyof AuditRow)[];

/** user0001, user0002…: the name of the user of rank `rank` (1 is the most active). */
export const auditUserName = (rank: number) => `user${String(rank).padStart(4, '0')}`;

function roleOf(rank: number): Role {
  if (rank <= 3) return 'super_admin';
  if (rank <= 30) return 'admin';
  if (rank <= 120) return 'central_ops';
  if (rank <= 400) return 'incharge';
  return rank % 3 === 0 ? 'executive' : 'operators';
}

const BRANDS = (
  'Samsung Apple Xiaomi OnePlus Realme Vivo Oppo Motorola Nokia Lenovo Dell HP Asus Acer LG Sony boAt Noise JBL ' +
  'Philips Redmi Poco iQOO Nothing Google Honor Infinix Tecno Lava Micromax'
).split(' ');
const MANUFACTURERS = 'Foxconn Wistron Pegatron BYD Dixon Flex Jabil Compal Quanta Luxshare'.split(' ');
const HUBS = Array.from({ length: 40 }, (_, n) => `HUB${String(n + 1).padStart(2, '0')}`);
const TRIED_NAMES = ['admin', 'root', 'test', 'administrator', 'guest', 'support', 'veritas', 'user'];

interface Draft {
  actorKind: AuditActorKind;
  /** The acting user's rank (0: no user). */
  rank: number;
  /** The name of an anonymous or system actor. */
  name?: string;
  action: AuditAction;
  outcome: AuditOutcome;
  target?: { kind: AuditTargetKind; id: string | null; label: string } | null;
  details?: Record<string, unknown> | null;
}

/** The entries' generator: which user acts (a Zipf law over `users`), what they do, with what target. */
class AuditMix {
  private readonly cumulative: Float64Array;
  /** Each kind of entry: its share of the entries, and how to make one. */
  private readonly kinds: [weight: number, make: () => Draft][];
  private readonly total: number;
  private nextUser: number;
  private nextUpload = 1;

  constructor(
    private readonly rand: RandomSource,
    private readonly users: number,
  ) {
    // Zipf (s = 1): user0001 acts ~1/H(n) of the time (11.5% at 3,000 users), user3000 ~ n times less.
    this.cumulative = new Float64Array(users);
    let sum = 0;
    for (let rank = 1; rank <= users; rank++) this.cumulative[rank - 1] = sum += 1 / rank;
    for (let i = 0; i < users; i++) this.cumulative[i]! /= sum;
    this.nextUser = users + 1;
    const r = rand;
    const user = () => this.user();
    /** user0001…0003 are super admins, up to user0030 admins (roleOf): they act alike. */
    const admin = () => 1 + Math.floor(r.next() * 30);
    const superAdmin = () => 1 + Math.floor(r.next() * 3);
    /** Field staff (rank 401 on). */
    const fieldUser = () => this.user(401);
    const id = (below: number) => String(1 + Math.floor(r.next() * below));
    const day = () => new Date(Date.UTC(2025, 0, 1) + Math.floor(r.next() * 400) * DAY_MS).toISOString().slice(0, 10);
    const brand = (): Draft['target'] => ({ kind: 'brand', id: id(500), label: r.pick(BRANDS) });
    const manufacturers = () => MANUFACTURERS.filter(() => r.chance(0.3));
    const userTarget = (rank: number): Draft['target'] => ({
      kind: 'user',
      id: String(rank + 10),
      label: auditUserName(rank),
    });
    const by = (
      rank: number,
      action: AuditAction,
      target: Draft['target'] = null,
      details: Draft['details'] = null,
      outcome: AuditOutcome = 'success',
    ): Draft => ({ actorKind: 'user', rank, action, outcome, target, details });
    const anonymous = (action: AuditAction, outcome: AuditOutcome, known: number, details: Draft['details']) => ({
      actorKind: 'anonymous' as const,
      rank: 0,
      name: r.chance(known) ? auditUserName(user()) : r.pick(TRIED_NAMES),
      action,
      outcome,
      details,
    });
    /** A field user calling an admin's action: the role gate refuses it. */
    const refused = (action: AuditAction, target: Draft['target'], message: string) =>
      by(fieldUser(), action, target, { status: 403, message }, 'refused');
    const remote = (action: AuditAction) => {
      const name = r.pick(REMOTE_NAMES);
      const version = 1 + Math.floor(r.next() * 200);
      const entry = by(admin(), action, { kind: 'remote', id: name, label: name });
      return {
        ...entry,
        actorKind: r.chance(0.5) ? ('token' as const) : entry.actorKind,
        details: { before: { live: version - 1 }, after: { live: version } },
      };
    };
    this.kinds = [
      [0.7, () => by(user(), 'session.sign-in')],
      [0.12, () => by(user(), 'session.sign-out')],
      [0.035, () => anonymous('session.sign-in', 'failure', 0.85, { message: 'Invalid username or password.' })],
      [
        0.003,
        () =>
          anonymous('session.sign-in', 'refused', 0.5, {
            status: 429,
            message: 'Too many failed sign-ins: try again in 15 minutes.',
          }),
      ],
      [
        0.001,
        () => ({
          actorKind: 'system',
          rank: 0,
          name: 'system',
          action: 'session.family-revoked',
          outcome: 'success',
          target: userTarget(user()),
          details: { reason: 'a refresh token was used twice' },
        }),
      ],
      [
        0.004,
        () => {
          const rank = user();
          return by(rank, 'password.changed', userTarget(rank));
        },
      ],
      [
        0.0005,
        () => {
          const rank = user();
          return by(
            rank,
            'password.changed',
            userTarget(rank),
            { message: 'The current password is wrong.' },
            'failure',
          );
        },
      ],
      [0.001, () => by(admin(), 'password.reset', userTarget(fieldUser()))],
      [
        0.002,
        () => {
          const rank = this.nextUser++;
          return by(admin(), 'user.created', userTarget(rank), {
            after: { role: roleOf(rank), group: r.pick(HUBS), is_active: true },
          });
        },
      ],
      [
        0.0006,
        () =>
          by(admin(), 'user.activated', userTarget(fieldUser()), {
            before: { is_active: false },
            after: { is_active: true },
          }),
      ],
      [
        0.0005,
        () =>
          by(admin(), 'user.deactivated', userTarget(fieldUser()), {
            before: { is_active: true },
            after: { is_active: false },
          }),
      ],
      [
        0.0002,
        () => {
          const rank = fieldUser();
          return by(admin(), 'user.deleted', userTarget(rank), { before: { role: roleOf(rank), is_active: false } });
        },
      ],
      [
        0.0001,
        () =>
          by(
            admin(),
            'group.created',
            { kind: 'group', id: id(900), label: `HUB${id(900)}` },
            {
              after: { organization: 'hub' },
            },
          ),
      ],
      [0.001, () => by(admin(), 'brand.created', brand(), { after: { manufacturers: manufacturers() } })],
      [
        0.004,
        () =>
          by(admin(), 'brand.updated', brand(), {
            before: { manufacturers: manufacturers() },
            after: { manufacturers: manufacturers() },
          }),
      ],
      [
        0.0008,
        () =>
          by(
            admin(),
            'exclude-list.changed',
            { kind: 'exclude-list', id: null, label: 'exclude list' },
            {
              before: { brands: [r.pick(BRANDS), r.pick(BRANDS)] },
              after: { brands: [r.pick(BRANDS), r.pick(BRANDS), r.pick(BRANDS)] },
            },
          ),
      ],
      [
        0.02,
        () => {
          const rows = 1000 + Math.floor(r.next() * 499_000);
          const skipped = r.chance(0.3) ? Math.floor(r.next() * 50) : 0;
          const upload = { kind: 'upload' as const, id: String(this.nextUpload++), label: `shipments-${day()}.csv` };
          return by(admin(), 'upload.completed', upload, { rows, processed: rows - skipped, skipped });
        },
      ],
      [
        0.03,
        () => {
          const from = day();
          return by(
            admin(),
            'report.downloaded',
            { kind: 'report', id: null, label: `report ${from}` },
            {
              from,
              to: from,
              hub: r.chance(0.5) ? 'all' : r.pick(HUBS),
            },
          );
        },
      ],
      [0.008, () => by(admin(), 'apk.downloaded', { kind: 'apk', id: null, label: `veritas-3.${id(9)}.apk` })],
      [0.001, () => remote('remote.published')],
      [0.0005, () => remote('remote.promoted')],
      [0.0002, () => remote('remote.canary-started')],
      [0.0001, () => remote('remote.canary-stopped')],
      [0.0002, () => remote('remote.rolled-back')],
      [
        0.0002,
        () =>
          by(superAdmin(), 'token.created', {
            kind: 'token',
            id: id(50),
            label: `deploy-${r.pick(['ci', 'release'])}`,
          }),
      ],
      [
        0.0001,
        () =>
          by(superAdmin(), 'token.revoked', {
            kind: 'token',
            id: id(50),
            label: `deploy-${r.pick(['ci', 'release'])}`,
          }),
      ],
      [
        0.0001,
        () => by(superAdmin(), 'origin.added', { kind: 'origin', id: null, label: `https://cdn${id(5)}.example.com` }),
      ],
      [
        0.00005,
        () =>
          by(superAdmin(), 'origin.removed', { kind: 'origin', id: null, label: `https://cdn${id(5)}.example.com` }),
      ],
      [0.004, () => refused('brand.updated', brand(), 'Only admins can edit brands.')],
      [0.003, () => refused('user.created', null, 'You cannot create a user with this role.')],
      [0.003, () => refused('report.downloaded', { kind: 'report', id: null, label: `report ${day()}` }, 'Forbidden.')],
      [0.002, () => refused('upload.completed', null, 'Only admins can upload shipments.')],
    ];
    this.total = this.kinds.reduce((total, [weight]) => total + weight, 0);
  }

  /** A user by the Zipf law; one of rank `from` or more, the ranks before it spread over the rest. */
  private user(from = 1): number {
    const u = this.rand.next();
    let low = 0;
    let high = this.users - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.cumulative[mid]! < u) low = mid + 1;
      else high = mid;
    }
    const rank = low + 1;
    return rank >= from ? rank : from + ((rank * 7919) % (this.users - from + 1));
  }

  draft(): Draft {
    let u = this.rand.next() * this.total;
    for (const [weight, make] of this.kinds) {
      if (u < weight) return make();
      u -= weight;
    }
    return this.kinds[0]![1]();
  }
}

/** The address a user works from (most of the time), and strangers' for failed sign-ins. */
const addressOf = (rank: number) => `10.${20 + (rank >> 12)}.${(rank >> 6) & 63}.${(rank & 63) + 1}`;

/**
 * `count` rows after `head` (null: an empty table), the first at `fromMs` or later, spread evenly
 * (with jitter) to `toMs`; each row hashed over the one before it.
 */
export function* auditRows(
  count: number,
  head: { seq: number; createdMs: number; hash: string } | null,
  { seed = 20250101, users = 3000, days = 400, now = Date.now() }: Omit<AuditVolumeOptions, 'entries' | 'progress'>,
): Generator<AuditRow> {
  const rand = seededRandom(seed);
  const mix = new AuditMix(rand, users);
  const toMs = now;
  const fromMs = Math.max(toMs - days * DAY_MS, head?.createdMs ?? 0);
  const step = Math.max(0, toMs - fromMs) / Math.max(1, count);
  let seq = head?.seq ?? 0;
  let prevHash = head?.hash ?? GENESIS_HASH;
  let last = head?.createdMs ?? 0;
  for (let i = 0; i < count; i++) {
    const draft = mix.draft();
    last = Math.max(last, Math.floor(fromMs + step * (i + rand.next())));
    const user = draft.rank > 0 ? draft.rank : null;
    const stranger = `203.0.113.${1 + Math.floor(rand.next() * 254)}`;
    const row: AuditRow = {
      seq: ++seq,
      created_ms: last,
      actor_kind: draft.actorKind,
      actor_id: draft.actorKind === 'token' ? `t${1 + (draft.rank % 7)}` : user === null ? null : String(user + 10),
      actor_name:
        draft.actorKind === 'token'
          ? `deploy-${['ci', 'release'][draft.rank % 2]}`
          : (draft.name ?? auditUserName(user!)),
      actor_role: draft.actorKind === 'user' ? roleOf(user!) : null,
      address: draft.actorKind === 'system' ? null : user !== null && rand.chance(0.9) ? addressOf(user) : stranger,
      action: draft.action,
      target_kind: draft.target?.kind ?? null,
      target_id: draft.target?.id ?? null,
      target_label: draft.target?.label ?? null,
      outcome: draft.outcome,
      details: draft.details ? JSON.stringify(draft.details) : null,
      prev_hash: prevHash,
      hash: '',
    };
    row.hash = prevHash = entryHash(row);
    yield row;
  }
}

type Head = { seq: number; createdMs: number; hash: string } | null;

const headOf = (row: { seq: number | string; created_ms: number | string; hash: string } | undefined): Head =>
  row ? { seq: Number(row.seq), createdMs: Number(row.created_ms), hash: row.hash } : null;

/** The audit rows as COPY takes them: the values of COLUMNS, in order. */
function* copiedValues(rows: Iterator<AuditRow>): Iterator<unknown[]> {
  for (let next = rows.next(); !next.done; next = rows.next()) {
    const row = next.value;
    yield COLUMNS.map((column) => row[column]);
  }
}

async function loadPostgres(db: Db, options: AuditVolumeOptions): Promise<AuditLoadResult> {
  const { entries, progress = () => undefined } = options;
  const client = await db.pg!.connect();
  const started = Date.now();
  let inserted: number;
  try {
    await client.query('begin');
    // Readers go on; a writer waits for the commit (and then finds its seq taken: it fails, the chain holds).
    await client.query('lock table audit_log in exclusive mode');
    const { rows } = await client.query<{ seq: string; created_ms: string; hash: string }>(
      'select seq, created_ms, hash from audit_log order by seq desc limit 1',
    );
    const head = headOf(rows[0]);
    const rebuild = entries >= Math.max(100_000, head?.seq ?? 0);
    const indexes = rebuild ? await secondaryIndexes(db, 'audit_log') : [];
    for (const { name } of indexes) await client.query(`drop index ${name}`);
    await copyRows(client, 'audit_log', COLUMNS, copiedValues(auditRows(entries, head, options)), progress);
    inserted = Date.now();
    // Index builds sort in memory rather than in temporary files, with a parallel worker.
    await client.query(`set local maintenance_work_mem = '1GB'`);
    await client.query(`set local max_parallel_maintenance_workers = 2`);
    for (const { ddl } of indexes) await client.query(ddl);
    await client.query('commit');
    // Statistics for the planner, and a visibility map, as autovacuum would leave them.
    await client.query('vacuum (analyze) audit_log');
    const first = (head?.seq ?? 0) + (entries > 0 ? 1 : 0);
    return {
      first: entries > 0 ? first : 0,
      last: (head?.seq ?? 0) + entries,
      insertMs: inserted - started,
      indexMs: Date.now() - inserted,
      rebuiltIndexes: rebuild,
    };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

const SQLITE_ROWS_PER_INSERT = 500;
const SQLITE_ROWS_PER_TRANSACTION = 100_000;

async function loadSqlite(db: Db, options: AuditVolumeOptions): Promise<AuditLoadResult> {
  const { entries, progress = () => undefined } = options;
  const sqlite = db.sqlite!;
  const readHead = () =>
    headOf(
      sqlite.prepare('select seq, created_ms, hash from audit_log order by seq desc limit 1').get() as
        { seq: number; created_ms: number; hash: string } | undefined,
    );
  const head = readHead();
  const rebuild = entries >= Math.max(100_000, head?.seq ?? 0);
  const indexes = rebuild ? await secondaryIndexes(db, 'audit_log') : [];
  const row = `(${COLUMNS.map(() => '?').join(', ')})`;
  const insertOf = (count: number) =>
    sqlite.prepare(`insert into audit_log (${COLUMNS.join(', ')}) values ${Array(count).fill(row).join(', ')}`);
  const full = insertOf(SQLITE_ROWS_PER_INSERT);
  const rows = auditRows(entries, head, options);
  let next = rows.next();
  let expected = head?.seq ?? 0;
  const started = Date.now();
  let inserted: number;
  const transaction = sqlite.transaction(() => {
    // One writer at a time, but a server may have appended between two of these transactions.
    if ((readHead()?.seq ?? 0) !== expected) throw new Error('audit_log was appended to during the load');
    const values: (string | number | null)[] = [];
    let batch = 0;
    let inTransaction = 0;
    while (!next.done && inTransaction < SQLITE_ROWS_PER_TRANSACTION) {
      const entry = next.value;
      for (const column of COLUMNS) values.push(entry[column]);
      batch++;
      inTransaction++;
      next = rows.next();
      if (batch === SQLITE_ROWS_PER_INSERT) {
        full.run(values);
        values.length = 0;
        batch = 0;
      }
    }
    if (batch > 0) insertOf(batch).run(values);
    expected += inTransaction;
  });
  for (const { name } of indexes) sqlite.exec(`drop index ${name}`);
  try {
    while (!next.done) {
      await db.kysely.connection().execute(async () => transaction());
      progress(expected - (head?.seq ?? 0));
      // Let other work of the process (a benchmark's timers) run between transactions.
      await new Promise((resolve) => setImmediate(resolve));
    }
    inserted = Date.now();
  } finally {
    for (const { ddl } of indexes) sqlite.exec(ddl);
  }
  return {
    first: entries > 0 ? (head?.seq ?? 0) + 1 : 0,
    last: expected,
    insertMs: inserted - started,
    indexMs: Date.now() - inserted,
    rebuiltIndexes: rebuild,
  };
}

/**
 * Appends `entries` generated entries to audit_log after its current head (see the top of this
 * file). The database must be migrated.
 */
export function loadAuditVolume(db: Db, options: AuditVolumeOptions): Promise<AuditLoadResult> {
  return db.engine === 'postgres' ? loadPostgres(db, options) : loadSqlite(db, options);
}

/** The newest entry's seq (0: none), which is how many entries were ever written. */
export async function auditHead(db: Db): Promise<number> {
  const row = await db.kysely.selectFrom('audit_log').select('seq').orderBy('seq', 'desc').limit(1).executeTakeFirst();
  return row ? Number(row.seq) : 0;
}
