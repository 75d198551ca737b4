// `pnpm start` without a pipeline (docs/deploying-a-remote.md#pnpm-start-remotes_json-and-the-dev-servers): each remote built in the
// workspace is published at start and made live, until a team deploys that remote through the
// registry: once its live version was published by anyone else, pnpm start no longer moves it.
import fs from 'node:fs';
import path from 'node:path';
import { REMOTE_NAME_PATTERN } from '@veritas/shared/domain';
import type { AuditBy } from '../audit/trail';
import type { Db } from '../db/schema';
import { DomainError } from '../http-errors';
import { MANIFEST_FILE, publishFiles, type BuildFile } from './publish';
import { findLivePublisher } from './repository';
import { promote } from './rollout';
import type { RegistryConfig } from './versions';

export const PNPM_START = 'pnpm start';
/** pnpm start publishes as the server itself, from no client. */
const PNPM_START_BY: AuditBy = { actor: { kind: 'system', id: null, name: PNPM_START, role: null }, address: null };

/** Every file under `folder`, by its path relative to it (forward slashes). */
function filesUnder(folder: string): BuildFile[] {
  return (fs.readdirSync(folder, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const full = path.join(entry.parentPath, entry.name);
      return { path: path.relative(folder, full).split(path.sep).join('/'), bytes: fs.readFileSync(full) };
    });
}

/**
 * Publishes each built folder (remote name → its dist folder) holding an mf-manifest.json, and
 * promotes it while the remote has no live version or one pnpm start published. Instances starting
 * together all succeed: the same build is the same version, and promoting the live one is no change.
 * The gate checks a build against the remotes live at the time (a slot its extensions go into is
 * rendered by another remote), so the builds it refuses are tried again while a round makes
 * another remote live, whatever the order of the folders. A build still refused is reported and
 * left out; the console shows that remote's error card.
 */
export async function publishBuilt(db: Db, config: RegistryConfig, builds: Record<string, string>): Promise<void> {
  let pending: [string, string][] = [];
  for (const [remote, folder] of Object.entries(builds)) {
    if (!new RegExp(REMOTE_NAME_PATTERN).test(remote)) throw new Error(`publishBuilt: "${remote}" is no remote's name`);
    if (fs.existsSync(path.join(folder, MANIFEST_FILE))) pending.push([remote, folder]);
  }
  for (;;) {
    const refused: [string, string, DomainError][] = [];
    for (const [remote, folder] of pending) {
      try {
        await publishBuild(db, config, remote, folder);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        refused.push([remote, folder, error]);
      }
    }
    if (refused.length === 0) return;
    if (refused.length === pending.length) {
      for (const [remote, folder, error] of refused)
        console.warn(`The build of ${remote} in ${folder} was not published: ${error.message}`);
      return;
    }
    pending = refused.map(([remote, folder]) => [remote, folder]);
  }
}

async function publishBuild(db: Db, config: RegistryConfig, remote: string, folder: string): Promise<void> {
  const { version } = await publishFiles(db, config, remote, filesUnder(folder), 'Built by pnpm start', PNPM_START_BY);
  const publisher = await findLivePublisher(db.kysely, remote);
  if (publisher === undefined || publisher === PNPM_START) {
    await promote(db, config, remote, version.version, PNPM_START_BY);
  }
}
