// Publishing a version of a remote (docs/deploying-a-remote.md): a build's files, stored
// content-addressed in the database, or a build on a team's own https CDN, fetched to be checked.
// Either way its declaration (remote.json) is read and the gate runs first, against the other
// remotes as they are served at that moment; the same build published again is the version it was,
// and a new version is stored in one transaction, so an instance stopped mid-publish leaves no half
// version.
import crypto from 'node:crypto';
import { posix } from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import {
  DECLARATION_FILE,
  contractOf,
  readManifest,
  type PublishAnswer,
  type RemoteDeclaration,
  type RemoteManifest,
} from '@veritas/shared/domain';
import type { Transaction } from 'kysely';
import { actorLabel, recordAudit, type AuditBy } from '../audit/trail';
import type { Database, Db } from '../db/schema';
import { BadRequest, Conflict, PayloadTooLarge } from '../http-errors';
import {
  deleteUnreferencedBlobs,
  deleteVersions,
  findLastVersionNumber,
  findVersionBefore,
  findVersionByHash,
  findVersionFiles,
  findVersions,
  insertBlob,
  insertVersion,
  insertVersionFiles,
  isAllowedOrigin,
  lockBlobs,
  lockRollout,
  type VersionRow,
} from './repository';
import { readDeclaration, type DeclaredRemote } from './declarations';
import { servedDeclarations } from './serving';
import { checkVersion, remoteVersionOf, requireShell, type RegistryConfig } from './versions';

const gzip = promisify(zlib.gzip);

export const MANIFEST_FILE = 'mf-manifest.json';
/** A remote's standalone page (its dev server's): the console never loads it. */
const STANDALONE_PAGE = 'index.html';
/** What a publish may store: the route takes 64 MiB of JSON, the files' base64 a third more than their bytes. */
export const MAX_BUILD_BYTES = 48 * 1024 * 1024;
/** What is fetched of an external build. */
const MAX_MANIFEST_BYTES = 1024 * 1024;
const MAX_ENTRY_BYTES = 10 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A file of a build. */
export interface BuildFile {
  /** Relative, forward slashes. */
  path: string;
  bytes: Buffer;
}

/** What POST registry/remotes/{remote}/versions/ sends: a build's files (base64), or where a team's CDN serves it. */
export type PublishInput = { files: { path: string; content: string }[] } | { baseUrl: string; integrity: string };

const sha256 = (bytes: Buffer | string) => crypto.createHash('sha256').update(bytes).digest('hex');
const sri = (algorithm: string, bytes: Buffer) =>
  `${algorithm}-${crypto.createHash(algorithm).update(bytes).digest('base64')}`;

/** The digest of a set of files: their sorted paths with their hashes. */
function contentHashOf(files: { path: string; hash: string }[]): string {
  const lines = files.map((file) => `${file.path}\0${file.hash}\n`).sort();
  return sha256(lines.join(''));
}

/** The path of the entry script (remoteEntry.js) the manifest names, relative to the build's folder. */
function entryPathOf(manifest: RemoteManifest): string {
  const { path = '', name } = manifest.metaData.remoteEntry;
  return posix.normalize(posix.join('/', path, name)).slice(1);
}

interface Publication {
  remote: string;
  note: string | null;
  /** Who publishes: the version's publisher and the audit entry's actor. */
  by: AuditBy;
  manifestHash: string;
  manifest: RemoteManifest;
  declaration: RemoteDeclaration;
  integrity: string;
  contentHash: string;
  baseUrl: string | null;
  files: { path: string; hash: string; bytes: Buffer }[];
}

/** Publishes a version of `remote`: `created` when new, else the version this same build already is. */
export async function publish(
  db: Db,
  config: RegistryConfig,
  remote: string,
  input: PublishInput,
  note: string | null,
  by: AuditBy,
): Promise<PublishAnswer> {
  if ('files' in input) return publishFiles(db, config, remote, decodeFiles(input.files), note, by);
  requireShell(config);
  const others = await servedDeclarations(db.kysely, remote);
  const read = await fetchExternalBuild(db, config, remote, input, others);
  const { created, row } = await store(db, config.keep, { ...read, remote, note, by });
  return { created, version: remoteVersionOf(row) };
}

/** Publishes a build's files (a publish's, or a built folder's at start). */
export async function publishFiles(
  db: Db,
  config: RegistryConfig,
  remote: string,
  build: BuildFile[],
  note: string | null,
  by: AuditBy,
): Promise<PublishAnswer> {
  requireShell(config);
  const others = await servedDeclarations(db.kysely, remote);
  const read = readBuild(config, remote, build, others);
  const { created, row } = await store(db, config.keep, { ...read, remote, note, by });
  return { created, version: remoteVersionOf(row) };
}

type Read = Omit<Publication, 'remote' | 'note' | 'by'>;

/** The files as sent: each path once, base64 content, at most MAX_BUILD_BYTES in all. */
function decodeFiles(sent: { path: string; content: string }[]): BuildFile[] {
  const paths = new Set<string>();
  let total = 0;
  return sent.map(({ path, content }) => {
    if (paths.has(path)) throw new BadRequest('files', `The file "${path}" is sent twice.`);
    paths.add(path);
    if (!BASE64.test(content)) throw new BadRequest('files', `The content of "${path}" is not base64.`);
    const bytes = Buffer.from(content, 'base64');
    total += bytes.length;
    if (total > MAX_BUILD_BYTES) {
      throw new PayloadTooLarge(
        `The build is larger than ${MAX_BUILD_BYTES / 1024 / 1024} MiB, which is what may be published.`,
      );
    }
    return { path, bytes };
  });
}

/**
 * remote.json of a build as its declaration of `remote`: 409 when it is missing (`bytes`
 * undefined), not JSON, not a declaration, or another remote's.
 */
function declarationIn(remote: string, bytes: Buffer | undefined, where: string): RemoteDeclaration {
  if (bytes === undefined) {
    throw new Conflict(`The build has no ${DECLARATION_FILE}: each version declares what it adds to the console.`);
  }
  const read = readDeclaration(
    remote,
    parseJson(bytes, `${where} is not JSON.`, (message) => new Conflict(message)),
  );
  if (read.problem !== undefined) throw new Conflict(read.problem);
  return read.declaration;
}

function readBuild(config: RegistryConfig, remote: string, build: BuildFile[], others: DeclaredRemote[]): Read {
  const files = build
    .filter((file) => file.path !== STANDALONE_PAGE)
    .map((file) => ({ ...file, hash: sha256(file.bytes) }));
  const manifestFile = files.find((file) => file.path === MANIFEST_FILE);
  if (!manifestFile) throw new BadRequest('files', `The build has no ${MANIFEST_FILE}.`);
  const manifest = parseJson(
    manifestFile.bytes,
    `${MANIFEST_FILE} is not JSON.`,
    (message) => new BadRequest('files', message),
  );
  const declarationFile = files.find((file) => file.path === DECLARATION_FILE);
  const declaration = declarationIn(remote, declarationFile?.bytes, DECLARATION_FILE);
  checkVersion(config, remote, manifest, declaration, others);
  const read = readManifest(manifest)!;
  const entryPath = entryPathOf(read);
  const entry = files.find((file) => file.path === entryPath);
  if (!entry) {
    throw new BadRequest('files', `The entry script ${entryPath}, named by ${MANIFEST_FILE}, is not among the files.`);
  }
  return {
    manifestHash: manifestFile.hash,
    manifest: read,
    declaration,
    integrity: sri('sha384', entry.bytes),
    contentHash: contentHashOf(files),
    baseUrl: null,
    files,
  };
}

async function fetchExternalBuild(
  db: Db,
  config: RegistryConfig,
  remote: string,
  { baseUrl: given, integrity }: { baseUrl: string; integrity: string },
  others: DeclaredRemote[],
): Promise<Read> {
  const url = URL.canParse(given) ? new URL(given) : null;
  if (!url || url.protocol !== 'https:' || url.username || url.password || url.search || url.hash) {
    throw new BadRequest(
      'baseUrl',
      'The base URL must be https and end with /, without credentials, query or fragment.',
    );
  }
  const baseUrl = url.href;
  if (!(await isAllowedOrigin(db.kysely, url.origin))) {
    throw new Conflict(
      `${url.origin} is not an allowed origin: a super_admin must allow it before builds are published from it.`,
    );
  }
  const manifestUrl = `${baseUrl}${MANIFEST_FILE}`;
  const manifestBytes = await fetchBytes(config, manifestUrl, MAX_MANIFEST_BYTES);
  const manifest = parseJson(manifestBytes, `${manifestUrl} is not JSON.`, (message) => new Conflict(message));
  const declarationUrl = `${baseUrl}${DECLARATION_FILE}`;
  const declarationBytes = await fetchBytes(config, declarationUrl, MAX_MANIFEST_BYTES);
  const declaration = declarationIn(remote, declarationBytes, declarationUrl);
  checkVersion(config, remote, manifest, declaration, others);
  const read = readManifest(manifest)!;
  const entryUrl = `${baseUrl}${entryPathOf(read)}`;
  const entryBytes = await fetchBytes(config, entryUrl, MAX_ENTRY_BYTES);
  const algorithm = integrity.slice(0, integrity.indexOf('-'));
  const actual = sri(algorithm, entryBytes);
  if (actual !== integrity) {
    throw new Conflict(`integrity mismatch: ${entryUrl} is ${actual}, not ${integrity}.`);
  }
  const manifestHash = sha256(manifestBytes);
  return {
    manifestHash,
    manifest: read,
    declaration,
    integrity: sri('sha384', entryBytes),
    // Where it is served is part of what it is: the same build on another CDN is another version.
    contentHash: contentHashOf([
      { path: manifestUrl, hash: manifestHash },
      { path: declarationUrl, hash: sha256(declarationBytes) },
      { path: entryUrl, hash: sha256(entryBytes) },
    ]),
    baseUrl,
    files: [],
  };
}

function parseJson(bytes: Buffer, message: string, refusal: (message: string) => Error): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw refusal(message);
  }
}

/** GET `url` through the configured fetch: no redirects, at most `maxBytes`, within FETCH_TIMEOUT_MS. */
async function fetchBytes(config: RegistryConfig, url: string, maxBytes: number): Promise<Buffer> {
  const refusal = (reason: string) => new Conflict(`${url} could not be fetched: ${reason}.`);
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  let response: Response;
  try {
    response = await config.fetch(url, { redirect: 'error', signal });
  } catch (error) {
    throw refusal(signal.aborted ? `no answer within ${FETCH_TIMEOUT_MS / 1000} s` : causeOf(error));
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw refusal(`it answered ${response.status}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.length;
      if (size > maxBytes) {
        await response.body?.cancel();
        throw refusal(`it is larger than ${maxBytes / 1024 / 1024} MiB`);
      }
      chunks.push(Buffer.from(chunk));
    }
  } catch (error) {
    if (error instanceof Conflict) throw error;
    throw refusal(signal.aborted ? `no answer within ${FETCH_TIMEOUT_MS / 1000} s` : causeOf(error));
  }
  return Buffer.concat(chunks);
}

/** fetch's own message ("fetch failed") names no cause: its `cause` does. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { message?: unknown } } | null)?.cause;
  const message = typeof cause?.message === 'string' ? cause.message : error instanceof Error ? error.message : '';
  return message || 'the request failed';
}

/** The paths that differ between two sets of files, sorted, the first three named: 'remote.json, 2 more'. */
function filesDiffering(
  before: readonly { path: string; hash: string }[],
  after: readonly { path: string; hash: string }[],
) {
  const hashes = new Map(before.map((file) => [file.path, file.hash]));
  const paths = new Set(after.filter((file) => hashes.get(file.path) !== file.hash).map((file) => file.path));
  const kept = new Set(after.map((file) => file.path));
  for (const file of before) if (!kept.has(file.path)) paths.add(file.path);
  const sorted = [...paths].sort();
  const named = sorted.slice(0, 3).join(', ');
  return sorted.length > 3 ? `${named}, ${sorted.length - 3} more` : named;
}

/**
 * The version of this build: the existing one when its content was published before, else a new
 * one. One transaction: the blobs it lacks, the next version number (the remote's rollout row
 * locked, so two publishes of one remote never take the same number), the version, its files, and
 * the pruning of versions beyond `keep`.
 */
async function store(db: Db, keep: number, publication: Publication): Promise<{ created: boolean; row: VersionRow }> {
  const { remote } = publication;
  const before = await findVersionByHash(db.kysely, remote, 'content_hash', publication.contentHash);
  if (before) return { created: false, row: before };
  // Compressed before the transaction: the locks are held for the queries only.
  const blobs = await Promise.all(
    publication.files.map(async (file) => ({ hash: file.hash, size: file.bytes.length, gzip: await gzip(file.bytes) })),
  );
  return db.transaction(async (trx) => {
    await lockBlobs(trx, db);
    await lockRollout(trx, db, remote);
    // Published meanwhile (another instance, the same pipeline run twice): that version.
    const existing = await findVersionByHash(trx, remote, 'content_hash', publication.contentHash);
    if (existing) return { created: false, row: existing };
    if (publication.baseUrl === null) {
      const same = await findVersionByHash(trx, remote, 'manifest_hash', publication.manifestHash);
      if (same) {
        const differing = filesDiffering(await findVersionFiles(trx, remote, same.version), publication.files);
        throw new Conflict(
          `Version ${same.version} of ${remote} has the same ${MANIFEST_FILE} but other files (${differing}): its files would be served under one folder. Build again, with content hashes in the file names, rather than changing a build's files.`,
        );
      }
    }
    const now = Date.now();
    let bytes = 0;
    const unique = new Map(blobs.map((blob) => [blob.hash, blob]));
    for (const blob of unique.values()) if (await insertBlob(trx, blob, now)) bytes += blob.size;
    const version = (await findLastVersionNumber(trx, remote)) + 1;
    const { manifest } = publication;
    await insertVersion(trx, {
      remote,
      version,
      manifest_hash: publication.manifestHash,
      content_hash: publication.contentHash,
      integrity: publication.integrity,
      contract: contractOf(manifest) ?? '',
      shared_json: JSON.stringify(
        manifest.shared.flatMap(({ name, requiredVersion }) =>
          typeof requiredVersion === 'string' ? [{ name, requiredVersion }] : [],
        ),
      ),
      exposes_json: JSON.stringify(manifest.exposes.map((exposed) => exposed.path)),
      source: publication.baseUrl === null ? 'registry' : 'external',
      base_url: publication.baseUrl,
      bytes,
      published_by: actorLabel(publication.by),
      published_ms: now,
      note: publication.note,
      declaration_json: JSON.stringify(publication.declaration),
    });
    await insertVersionFiles(
      trx,
      publication.files.map((file) => ({ remote, version, path: file.path, hash: file.hash })),
    );
    await prune(trx, db, remote, keep);
    await recordAudit(trx, db, publication.by, {
      action: 'remote.published',
      outcome: 'success',
      target: { kind: 'remote', id: remote, label: remote },
      details: {
        version,
        manifest_hash: publication.manifestHash,
        source: publication.baseUrl === null ? 'registry' : 'external',
        base_url: publication.baseUrl,
        new_bytes: bytes,
        note: publication.note,
      },
    });
    return { created: true, row: (await findVersionByHash(trx, remote, 'content_hash', publication.contentHash))! };
  });
}

/**
 * Deletes the versions of `remote` beyond the `keep` newest, but never the live one, the canary or
 * the previous live one (what a rollback returns to), then the blobs no version references.
 * Runs in the publish's transaction, which holds the blobs' and the rollout's locks.
 */
async function prune(trx: Transaction<Database>, db: Db, remote: string, keep: number) {
  const rollout = await lockRollout(trx, db, remote);
  const previous = rollout.live === null ? null : await findVersionBefore(trx, remote, rollout.live);
  const kept = new Set([rollout.live, rollout.canary, previous]);
  const old = (await findVersions(trx, remote))
    .slice(keep)
    .map((row) => row.version)
    .filter((version) => !kept.has(version));
  if (old.length === 0) return;
  await deleteVersions(trx, remote, old);
  await deleteUnreferencedBlobs(trx);
}
