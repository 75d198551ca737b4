// The origins external builds may be served from (docs/deploying-a-remote.md#a-teams-own-cdn). The
// console's page may load scripts from them too: scripts/serve.mjs writes them into its
// Content-Security-Policy, read through allowedOrigins (createServer's `registry`).
import type { AllowedOrigin } from '@veritas/shared/domain';
import { actorLabel, recordAudit, type AuditBy } from '../audit/trail';
import { isoOfMs, type Db } from '../db/schema';
import { BadRequest, Conflict, NotFound } from '../http-errors';
import { deleteAllowedOrigin, findAllowedOrigins, insertAllowedOrigin } from './repository';

export async function listAllowedOrigins(db: Db): Promise<AllowedOrigin[]> {
  return (await findAllowedOrigins(db.kysely)).map((row) => ({
    origin: row.origin,
    addedBy: row.added_by,
    addedAt: isoOfMs(row.added_ms),
  }));
}

/** `origin` as URL writes it (lower-case host, no default port), so that one origin is one row. */
function normalized(origin: string): string {
  // The schema's pattern lets a port past 65535 by, which URL refuses.
  if (!URL.canParse(origin)) throw new BadRequest('origin', `${origin} is not an origin.`);
  return new URL(origin).origin;
}

/** The audit entry of a change of the list: the origin, allowed or not before and after. */
const originChange = (origin: string, allowed: boolean) =>
  ({
    action: allowed ? 'origin.added' : 'origin.removed',
    outcome: 'success',
    target: { kind: 'origin', label: origin },
    details: { before: { allowed: !allowed }, after: { allowed } },
  }) as const;

export async function allowOrigin(db: Db, origin: string, by: AuditBy): Promise<AllowedOrigin[]> {
  const allowed = normalized(origin);
  await db.transaction(async (trx) => {
    if (!(await insertAllowedOrigin(trx, allowed, actorLabel(by), Date.now()))) {
      throw new Conflict(`${allowed} is allowed already.`);
    }
    await recordAudit(trx, db, by, originChange(allowed, true));
  });
  return listAllowedOrigins(db);
}

export async function removeOrigin(db: Db, origin: string, by: AuditBy): Promise<AllowedOrigin[]> {
  const removed = normalized(origin);
  await db.transaction(async (trx) => {
    if (!(await deleteAllowedOrigin(trx, removed))) throw new NotFound(`${removed} is not an allowed origin.`);
    await recordAudit(trx, db, by, originChange(removed, false));
  });
  return listAllowedOrigins(db);
}

/** How long the page's policy may lag a change of the list: it is read on every page load. */
const ORIGINS_CACHE_MS = 5000;

/**
 * The allowed origins, read at most every ORIGINS_CACHE_MS. Never fails: while the database is
 * away (a read refused), the last list read stands (none before a first read), so the shell's
 * files are still sent, under the policy last allowed, and the next read is due as after a good one.
 */
export function cachedAllowedOrigins(db: Db): () => Promise<string[]> {
  let cached: { at: number; origins: Promise<string[]> } | undefined;
  let lastRead: string[] = [];
  return () => {
    const now = Date.now();
    if (!cached || now - cached.at > ORIGINS_CACHE_MS) {
      const origins = findAllowedOrigins(db.kysely).then(
        (rows) => (lastRead = rows.map((row) => row.origin)),
        () => lastRead,
      );
      cached = { at: now, origins };
    }
    return cached.origins;
  };
}
