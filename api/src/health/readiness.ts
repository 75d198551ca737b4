// Readiness (health/ready/): the database answers, in time, and holds every migration of this code.
import type { FastifyBaseLogger } from 'fastify';
import { pendingMigrations } from '../db/connection';
import type { Db } from '../db/schema';

/** How long the database may take to answer before the instance counts as not ready. */
const DATABASE_TIMEOUT_MS = 2000;

/** Why this instance should not be sent traffic, or null when it is ready. */
export async function notReadyReason(db: Db, log: Pick<FastifyBaseLogger, 'warn'>): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${DATABASE_TIMEOUT_MS} ms`)), DATABASE_TIMEOUT_MS);
  });
  try {
    const pending = await Promise.race([pendingMigrations(db), timeout]);
    return pending.length > 0 ? `Database migrations not applied: ${pending.join(', ')}.` : null;
  } catch (error) {
    log.warn({ err: error }, 'readiness: the database did not answer');
    return 'The database cannot be reached.';
  } finally {
    clearTimeout(timer);
  }
}
