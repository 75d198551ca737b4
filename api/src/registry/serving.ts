// What the console loads (docs/deploying-a-remote.md#what-the-console-loads): which version of each
// remote a viewer is served (the composition, src/registry/composition.ts, is made of them), and the
// files of registry versions under /remotes/<remote>/<manifest key>/, immutable.
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Kysely } from 'kysely';
import type { RemoteDeclaration, RemoteEntry } from '@veritas/shared/domain';
import type { Database, Db } from '../db/schema';
import type { DeclaredRemote } from './declarations';
import { findBlob, findFileHash, findServedVersions } from './repository';
import { MANIFEST_KEY_LENGTH, manifestUrlOf, storedDeclaration } from './versions';

const gunzip = promisify(zlib.gunzip);

/**
 * Whether `viewer` gets the canary `canaryVersion` of `remote` at `percent`: a bucket 0–99 from a
 * hash of the three, so each user stays on one side for the life of the canary, and each canary
 * draws its users anew.
 */
export function onCanary(viewer: string, remote: string, canaryVersion: number, percent: number): boolean {
  const digest = crypto.createHash('sha256').update(`${viewer}:${remote}:${canaryVersion}`).digest();
  return digest.readUInt32BE(0) % 100 < percent;
}

/** The version of a remote a viewer is served: where it loads from, and what it declares (null: nothing). */
export interface ServedRemote {
  remote: string;
  entry: RemoteEntry;
  declaration: RemoteDeclaration | null;
}

/** What is served of every remote with a live version: to the viewer `bucket` names, and to anyone. */
export interface Served {
  /** Each remote's version for this viewer (no bucket: the live one), by remote name. */
  remotes: ServedRemote[];
  /** The declarations of every version served to anyone: each live one and each canary. */
  all: DeclaredRemote[];
}

/**
 * The versions served: for the viewer named `bucket` (the viewer cookie, or the signed-in user's
 * name; undefined: the live versions), and every live and canary version.
 */
export async function servedVersions(kysely: Kysely<Database>, bucket: string | undefined): Promise<Served> {
  const served: Served = { remotes: [], all: [] };
  for (const row of await findServedVersions(kysely)) {
    const live = storedDeclaration({ declaration_json: row.live_declaration });
    const canaryDeclaration =
      row.canary === null ? null : storedDeclaration({ declaration_json: row.canary_declaration });
    if (live) served.all.push({ remote: row.remote, declaration: live });
    if (canaryDeclaration) served.all.push({ remote: row.remote, declaration: canaryDeclaration });
    const canary =
      bucket !== undefined &&
      row.canary !== null &&
      row.canary_percent !== null &&
      onCanary(bucket, row.remote, row.canary, row.canary_percent);
    const version = canary
      ? {
          version: row.canary!,
          manifest_hash: row.canary_manifest_hash!,
          integrity: row.canary_integrity!,
          base_url: row.canary_base_url,
        }
      : {
          version: row.live,
          manifest_hash: row.live_manifest_hash,
          integrity: row.live_integrity,
          base_url: row.live_base_url,
        };
    served.remotes.push({
      remote: row.remote,
      entry: {
        entry: manifestUrlOf({ remote: row.remote, ...version }),
        version: version.version,
        integrity: version.integrity,
      },
      declaration: canary ? canaryDeclaration : live,
    });
  }
  served.remotes.sort((a, b) => (a.remote < b.remote ? -1 : a.remote > b.remote ? 1 : 0));
  return served;
}

/** The declarations of the live and canary versions of every remote but `except`: what a version of it is checked against. */
export async function servedDeclarations(kysely: Kysely<Database>, except: string): Promise<DeclaredRemote[]> {
  return (await servedVersions(kysely, undefined)).all.filter((served) => served.remote !== except);
}

/** A file of a version as stored: gzip-compressed, and its size once gunzipped. */
export interface StoredFile {
  gzip: Buffer;
  size: number;
}

/** Blobs are immutable (named by their hash): the last ones served are kept, up to this many bytes. */
const CACHE_BYTES = 64 * 1024 * 1024;

/** A least-recently-used cache of blobs by hash, bounded by their compressed bytes. */
export class BlobCache {
  private readonly blobs = new Map<string, StoredFile>();
  private bytes = 0;

  constructor(private readonly capacity = CACHE_BYTES) {}

  get(hash: string): StoredFile | undefined {
    const blob = this.blobs.get(hash);
    if (blob) {
      // Most recently used last: a Map iterates in insertion order.
      this.blobs.delete(hash);
      this.blobs.set(hash, blob);
    }
    return blob;
  }

  set(hash: string, blob: StoredFile): void {
    if (blob.gzip.length > this.capacity || this.blobs.has(hash)) return;
    this.blobs.set(hash, blob);
    this.bytes += blob.gzip.length;
    for (const [oldest, old] of this.blobs) {
      if (this.bytes <= this.capacity) break;
      this.blobs.delete(oldest);
      this.bytes -= old.gzip.length;
    }
  }
}

const MANIFEST_KEY = new RegExp(`^[0-9a-f]{${MANIFEST_KEY_LENGTH}}$`);

/** How many paths of versions' files are remembered with their blob's hash. */
const KNOWN_PATHS = 20_000;

/**
 * The files of registry versions as the console loads them. A version's files never change, so
 * which blob a path of a version is, once found, is kept (up to KNOWN_PATHS, the oldest forgotten
 * first), and the blobs last served too (BlobCache): a page load's dozen files cost no query once
 * the instance has served them, and leave the database's connections to the API's calls.
 */
export class RemoteFiles {
  private readonly blobs = new BlobCache();
  private readonly hashes = new Map<string, string>();

  constructor(private readonly db: Db) {}

  /** The file `path` of the version of `remote` whose manifest key is `key`, or null. */
  async file(remote: string, key: string, path: string): Promise<StoredFile | null> {
    // No stored path holds a NUL, which PostgreSQL could not even compare.
    if (!MANIFEST_KEY.test(key) || path.includes('\0')) return null;
    const known = `${remote}/${key}/${path}`;
    let hash = this.hashes.get(known);
    if (hash === undefined) {
      hash = await findFileHash(this.db.kysely, remote, key, path);
      if (hash === undefined) return null;
      if (this.hashes.size >= KNOWN_PATHS) this.hashes.delete(this.hashes.keys().next().value!);
      this.hashes.set(known, hash);
    }
    const cached = this.blobs.get(hash);
    if (cached) return cached;
    // A version pruned since its path was remembered: its blob may be gone.
    const row = await findBlob(this.db.kysely, hash);
    if (!row) {
      this.hashes.delete(known);
      return null;
    }
    const blob = { gzip: row.gzip, size: Number(row.size) };
    this.blobs.set(hash, blob);
    return blob;
  }
}

export const gunzipped = (file: StoredFile): Promise<Buffer> => gunzip(file.gzip);
