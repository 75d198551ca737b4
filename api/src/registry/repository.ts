// Queries of the remote registry's tables (migration 009): versions and their files, blobs,
// rollouts and their history, allowed origins.
import type { Insertable, Kysely } from 'kysely';
import { lockingRows, lockUntilCommit } from '../db/engines';
import type { Database, Db, RemoteVersionFilesTable, RemoteVersionsTable, RolloutChangesTable } from '../db/schema';

/** The advisory lock of the blob store (PostgreSQL): an arbitrary constant no other lock of the API uses. */
const BLOBS_LOCK = 0x72_65_6d_6f_74; // 'remot'

const VERSION_COLUMNS = [
  'remote',
  'version',
  'manifest_hash',
  'integrity',
  'contract',
  'shared_json',
  'exposes_json',
  'source',
  'base_url',
  'bytes',
  'published_by',
  'published_ms',
  'note',
  'declaration_json',
] as const;

export type VersionRow = Awaited<ReturnType<typeof findVersion>> & {};

export async function findVersion(kysely: Kysely<Database>, remote: string, version: number) {
  return kysely
    .selectFrom('remote_versions')
    .select(VERSION_COLUMNS)
    .where('remote', '=', remote)
    .where('version', '=', version)
    .executeTakeFirst();
}

/**
 * The version of `remote` with this hash of its content (the same build published again) or of its
 * mf-manifest.json (another build whose files would be served under the same folder).
 */
export async function findVersionByHash(
  kysely: Kysely<Database>,
  remote: string,
  column: 'content_hash' | 'manifest_hash',
  hash: string,
) {
  return kysely
    .selectFrom('remote_versions')
    .select(VERSION_COLUMNS)
    .where('remote', '=', remote)
    .where(column, '=', hash)
    .executeTakeFirst();
}

/** The versions of `remote`, newest first. */
export async function findVersions(kysely: Kysely<Database>, remote: string) {
  return kysely
    .selectFrom('remote_versions')
    .select(VERSION_COLUMNS)
    .where('remote', '=', remote)
    .orderBy('version', 'desc')
    .execute();
}

export async function findLastVersionNumber(kysely: Kysely<Database>, remote: string): Promise<number> {
  const row = await kysely
    .selectFrom('remote_versions')
    .select(({ fn }) => fn.max('version').as('last'))
    .where('remote', '=', remote)
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}

export async function insertVersion(kysely: Kysely<Database>, version: Insertable<RemoteVersionsTable>) {
  await kysely.insertInto('remote_versions').values(version).execute();
}

/** Rows a statement: SQLite takes at most 32,766 parameters. */
const FILE_ROWS_PER_INSERT = 1000;

/** The paths of a version's files, with their hashes. */
export async function findVersionFiles(kysely: Kysely<Database>, remote: string, version: number) {
  return kysely
    .selectFrom('remote_version_files')
    .select(['path', 'hash'])
    .where('remote', '=', remote)
    .where('version', '=', version)
    .execute();
}

export async function insertVersionFiles(kysely: Kysely<Database>, files: RemoteVersionFilesTable[]) {
  for (let start = 0; start < files.length; start += FILE_ROWS_PER_INSERT) {
    await kysely
      .insertInto('remote_version_files')
      .values(files.slice(start, start + FILE_ROWS_PER_INSERT))
      .execute();
  }
}

/**
 * Serializes what adds or removes blobs (a publish, a pruning) on PostgreSQL, so a pruning never
 * deletes a blob a publish is about to reference; SQLite has one writer at a time anyway.
 */
export async function lockBlobs(kysely: Kysely<Database>, db: Db): Promise<void> {
  await lockUntilCommit(kysely, db, BLOBS_LOCK);
}

/** Inserts the blob unless one of that hash is stored; whether it inserted it. */
export async function insertBlob(
  kysely: Kysely<Database>,
  blob: { hash: string; gzip: Buffer; size: number },
  nowMs: number,
): Promise<boolean> {
  const inserted = await kysely
    .insertInto('remote_blobs')
    .values({ ...blob, created_ms: nowMs })
    .onConflict((conflict) => conflict.column('hash').doNothing())
    .returning('hash')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findBlob(kysely: Kysely<Database>, hash: string) {
  return kysely.selectFrom('remote_blobs').select(['gzip', 'size']).where('hash', '=', hash).executeTakeFirst();
}

/** The blob hash of `path` in the version of `remote` whose manifest hash starts with `manifestKey`. */
export async function findFileHash(kysely: Kysely<Database>, remote: string, manifestKey: string, path: string) {
  const row = await kysely
    .selectFrom('remote_version_files as f')
    .innerJoin('remote_versions as v', (join) =>
      join.onRef('v.remote', '=', 'f.remote').onRef('v.version', '=', 'f.version'),
    )
    .select('f.hash')
    .where('f.remote', '=', remote)
    .where('f.path', '=', path)
    .where((eb) =>
      eb(eb.fn<string>('substr', ['v.manifest_hash', eb.lit(1), eb.val(manifestKey.length)]), '=', manifestKey),
    )
    .executeTakeFirst();
  return row?.hash;
}

export async function deleteVersions(kysely: Kysely<Database>, remote: string, versions: number[]) {
  if (versions.length === 0) return;
  // The files go with their version (foreign key, on delete cascade).
  await kysely.deleteFrom('remote_versions').where('remote', '=', remote).where('version', 'in', versions).execute();
}

/** Deletes the blobs no version's file references. */
export async function deleteUnreferencedBlobs(kysely: Kysely<Database>): Promise<void> {
  await kysely
    .deleteFrom('remote_blobs')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('remote_version_files')
            .select('hash')
            .whereRef('remote_version_files.hash', '=', 'remote_blobs.hash'),
        ),
      ),
    )
    .execute();
}

/**
 * The rollout row of `remote`, created if missing and locked until the transaction ends
 * (PostgreSQL: FOR UPDATE; SQLite: the insert makes the transaction the one writer). Every change
 * of a remote's versions or rollout takes it first, so they happen one after another.
 */
export async function lockRollout(kysely: Kysely<Database>, db: Db, remote: string) {
  await kysely
    .insertInto('remote_rollouts')
    .values({ remote, live: null, canary: null, canary_percent: null, updated_ms: Date.now() })
    .onConflict((conflict) => conflict.column('remote').doNothing())
    .execute();
  const query = kysely
    .selectFrom('remote_rollouts')
    .select(['live', 'canary', 'canary_percent'])
    .where('remote', '=', remote);
  return lockingRows(db, query).executeTakeFirstOrThrow();
}

export type Rollout = Awaited<ReturnType<typeof lockRollout>>;

export async function findRollouts(kysely: Kysely<Database>) {
  return kysely.selectFrom('remote_rollouts').select(['remote', 'live', 'canary', 'canary_percent']).execute();
}

export async function updateRollout(kysely: Kysely<Database>, remote: string, rollout: Rollout) {
  await kysely
    .updateTable('remote_rollouts')
    .set({ ...rollout, updated_ms: Date.now() })
    .where('remote', '=', remote)
    .execute();
}

export async function insertRolloutChange(
  kysely: Kysely<Database>,
  change: Omit<Insertable<RolloutChangesTable>, 'id'>,
) {
  await kysely.insertInto('rollout_changes').values(change).execute();
}

/**
 * The last `limit` changes of `remote`'s rollout with an id below `before` (none: the newest),
 * newest first: one range of the index on (remote, id).
 */
export async function findRolloutChanges(kysely: Kysely<Database>, remote: string, limit: number, before?: number) {
  let query = kysely
    .selectFrom('rollout_changes')
    .select(['id', 'action', 'from_version', 'to_version', 'percent', 'actor', 'created_ms'])
    .where('remote', '=', remote);
  if (before !== undefined) query = query.where('id', '<', before);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

/** The live version before `live`: where the most recent promote to `live` came from. */
export async function findVersionBefore(kysely: Kysely<Database>, remote: string, live: number) {
  const row = await kysely
    .selectFrom('rollout_changes')
    .select('from_version')
    .where('remote', '=', remote)
    .where('action', '=', 'promote')
    .where('to_version', '=', live)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.from_version ?? null;
}

/** Who published `remote`'s live version, or undefined when it has none. */
export async function findLivePublisher(kysely: Kysely<Database>, remote: string) {
  const row = await kysely
    .selectFrom('remote_rollouts as r')
    .innerJoin('remote_versions as v', (join) =>
      join.onRef('v.remote', '=', 'r.remote').onRef('v.version', '=', 'r.live'),
    )
    .select('v.published_by')
    .where('r.remote', '=', remote)
    .executeTakeFirst();
  return row?.published_by;
}

/**
 * What the composition needs of each rollout with a live version: the live and canary versions'
 * rows, with their declarations.
 */
export async function findServedVersions(kysely: Kysely<Database>) {
  return kysely
    .selectFrom('remote_rollouts as r')
    .innerJoin('remote_versions as l', (join) =>
      join.onRef('l.remote', '=', 'r.remote').onRef('l.version', '=', 'r.live'),
    )
    .leftJoin('remote_versions as c', (join) =>
      join.onRef('c.remote', '=', 'r.remote').onRef('c.version', '=', 'r.canary'),
    )
    .select([
      'r.remote',
      'r.canary_percent',
      'l.version as live',
      'l.manifest_hash as live_manifest_hash',
      'l.integrity as live_integrity',
      'l.base_url as live_base_url',
      'l.declaration_json as live_declaration',
      'c.version as canary',
      'c.manifest_hash as canary_manifest_hash',
      'c.integrity as canary_integrity',
      'c.base_url as canary_base_url',
      'c.declaration_json as canary_declaration',
    ])
    .execute();
}

/** Every remote the registry has a rollout or versions for, by name (code unit order, whatever the collation). */
export async function findRemoteNames(kysely: Kysely<Database>): Promise<string[]> {
  const rows = await kysely
    .selectFrom('remote_rollouts')
    .select('remote')
    .union(kysely.selectFrom('remote_versions').select('remote'))
    .execute();
  return rows.map((row) => row.remote).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The declaration of every stored version that has one (remote.json, as stored). */
export async function findStoredDeclarations(kysely: Kysely<Database>) {
  return kysely
    .selectFrom('remote_versions')
    .select(['remote', 'version', 'declaration_json'])
    .where('declaration_json', 'is not', null)
    .execute();
}

export async function findAllowedOrigins(kysely: Kysely<Database>) {
  return kysely.selectFrom('allowed_origins').select(['origin', 'added_by', 'added_ms']).orderBy('origin').execute();
}

export async function insertAllowedOrigin(kysely: Kysely<Database>, origin: string, addedBy: string, nowMs: number) {
  const inserted = await kysely
    .insertInto('allowed_origins')
    .values({ origin, added_by: addedBy, added_ms: nowMs })
    .onConflict((conflict) => conflict.column('origin').doNothing())
    .returning('origin')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function deleteAllowedOrigin(kysely: Kysely<Database>, origin: string): Promise<boolean> {
  const result = await kysely.deleteFrom('allowed_origins').where('origin', '=', origin).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function isAllowedOrigin(kysely: Kysely<Database>, origin: string): Promise<boolean> {
  const row = await kysely
    .selectFrom('allowed_origins')
    .select('origin')
    .where('origin', '=', origin)
    .executeTakeFirst();
  return row !== undefined;
}
