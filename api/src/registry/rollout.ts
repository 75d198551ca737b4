// Which version of a remote the console loads (docs/deploying-a-remote.md#promote-canary-rollback): the live one,
// and a canary for a share of users. Each change is one transaction holding the remote's rollout
// row, so changes at the same moment (two pipelines promoting) happen one after the other, each in
// the history, and the live pointer is the last one's; its live event is the last statement. A
// retired remote has no live version (nor canary) until one is promoted again.
import {
  HISTORY_PAGE_SIZE,
  type AuditAction,
  type RemoteDeployment,
  type RolloutChange,
  type RolloutHistoryPage,
  type RolloutHistoryQuery,
} from '@veritas/shared/domain';
import type { Transaction } from 'kysely';
import { actorLabel, recordAudit, type AuditBy } from '../audit/trail';
import { isoOfMs, MAX_SERIAL_ID, type Database, type Db, type RolloutAction } from '../db/schema';
import { Conflict, NotFound } from '../http-errors';
import { remotesEvent, writeEvents } from '../events/write';
import {
  findRemoteNames,
  findRollouts,
  findRolloutChanges,
  findVersion,
  findVersionBefore,
  findVersions,
  insertRolloutChange,
  lockRollout,
  updateRollout,
  type Rollout,
} from './repository';
import { servedDeclarations } from './serving';
import { checkStoredVersion, remoteVersionOf, type RegistryConfig } from './versions';

/** Largest integer column value: a greater version number names no version (PostgreSQL would refuse to compare it). */
const MAX_VERSION = 2_147_483_647;

type ChangeRow = Awaited<ReturnType<typeof findRolloutChanges>>[number];

const rolloutChangeOf = (change: ChangeRow): RolloutChange => ({
  id: change.id,
  action: change.action,
  from: change.from_version,
  to: change.to_version,
  percent: change.percent,
  by: change.actor,
  at: isoOfMs(change.created_ms),
});

/** The remote's rollout, versions kept and newest changes (a page of its history). */
export async function deploymentOf(db: Db, remote: string): Promise<RemoteDeployment> {
  const [rollouts, rows, changes] = await Promise.all([
    findRollouts(db.kysely),
    findVersions(db.kysely, remote),
    findRolloutChanges(db.kysely, remote, HISTORY_PAGE_SIZE),
  ]);
  const rollout = rollouts.find((row) => row.remote === remote);
  const live = rollout?.live ?? null;
  const before = live === null ? null : await findVersionBefore(db.kysely, remote, live);
  return {
    remote,
    live,
    canary: rollout?.canary != null ? { version: rollout.canary, percent: Number(rollout.canary_percent) } : null,
    previous: rows.some((row) => row.version === before) ? before : null,
    versions: rows.map(remoteVersionOf),
    history: changes.map(rolloutChangeOf),
  };
}

/**
 * A page of `remote`'s history, newest first: the changes older than `before` (none: the newest).
 * The history keeps every change, also those of versions pruned since. Changes of one remote are
 * written one after the other under its rollout's lock, so their ids grow with time and a page
 * read after another's `next` neither misses nor repeats one, whatever was changed meanwhile.
 */
export async function historyPage(
  db: Db,
  remote: string,
  { before, limit: limitText }: RolloutHistoryQuery,
): Promise<RolloutHistoryPage> {
  const limit = limitText ? Number(limitText) : HISTORY_PAGE_SIZE;
  // Every id is below a greater number (PostgreSQL would refuse to compare it): no bound.
  const below = before === undefined || Number(before) > MAX_SERIAL_ID ? undefined : Number(before);
  // One more than asked tells whether a page follows.
  const rows = await findRolloutChanges(db.kysely, remote, limit + 1, below);
  const more = rows.length > limit;
  const changes = rows.slice(0, limit).map(rolloutChangeOf);
  return { changes, next: more ? String(changes[limit - 1]!.id) : null };
}

/** Every remote the registry has a rollout or versions for, by name. */
export async function listDeployments(db: Db): Promise<RemoteDeployment[]> {
  const deployments: RemoteDeployment[] = [];
  for (const remote of await findRemoteNames(db.kysely)) deployments.push(await deploymentOf(db, remote));
  return deployments;
}

async function versionOf(kysely: Transaction<Database> | Db['kysely'], remote: string, version: number) {
  const row = version <= MAX_VERSION ? await findVersion(kysely, remote, version) : undefined;
  if (!row) throw new NotFound(`${remote} has no version ${version}.`);
  return row;
}

interface Change {
  rollout: Rollout;
  action: RolloutAction;
  from: number | null;
  to: number | null;
  percent?: number;
}

const AUDIT_ACTIONS: Record<RolloutAction, AuditAction> = {
  promote: 'remote.promoted',
  canary: 'remote.canary-started',
  'stop-canary': 'remote.canary-stopped',
  rollback: 'remote.rolled-back',
  retire: 'remote.retired',
};

/** What the audit entry shows of a rollout. */
const rolloutState = ({ live, canary, canary_percent }: Rollout) => ({ live, canary, canary_percent });

/**
 * Applies the change `decide` makes of the locked rollout, records it in the history and the audit
 * trail, and tells the consoles; null: nothing to change (nothing recorded).
 */
async function changeRollout(
  db: Db,
  remote: string,
  by: AuditBy,
  decide: (trx: Transaction<Database>, rollout: Rollout) => Promise<Change | null>,
): Promise<RemoteDeployment> {
  await db.transaction(async (trx) => {
    const before = await lockRollout(trx, db, remote);
    const change = await decide(trx, before);
    if (!change) return;
    await updateRollout(trx, remote, change.rollout);
    await insertRolloutChange(trx, {
      remote,
      action: change.action,
      from_version: change.from,
      to_version: change.to,
      percent: change.percent ?? null,
      actor: actorLabel(by),
      created_ms: Date.now(),
    });
    await recordAudit(trx, db, by, {
      action: AUDIT_ACTIONS[change.action],
      outcome: 'success',
      target: { kind: 'remote', id: remote, label: remote },
      details: { before: rolloutState(before), after: rolloutState({ ...before, ...change.rollout }) },
    });
    await writeEvents(trx, db, [remotesEvent(remote)]);
  });
  return deploymentOf(db, remote);
}

const noCanary = { canary: null, canary_percent: null };

/**
 * The gate, again, for a stored version about to be served: the console and the other remotes may
 * have changed since it was published; a version without a declaration is refused.
 */
async function checkAgain(db: Db, config: RegistryConfig, remote: string, version: number): Promise<void> {
  const row = await versionOf(db.kysely, remote, version);
  checkStoredVersion(config, row, await servedDeclarations(db.kysely, remote));
}

/**
 * Makes `version` live for everyone, ending any canary. The gate runs again: the console may have
 * changed since the version was published. Promoting the live version again changes nothing (a
 * pipeline run twice), but ends a canary.
 */
export async function promote(
  db: Db,
  config: RegistryConfig,
  remote: string,
  version: number,
  by: AuditBy,
): Promise<RemoteDeployment> {
  await checkAgain(db, config, remote, version);
  return changeRollout(db, remote, by, async (trx, rollout) => {
    // Pruned meanwhile: gone.
    await versionOf(trx, remote, version);
    if (rollout.live === version) {
      if (rollout.canary === null) return null;
      return { rollout: { live: version, ...noCanary }, action: 'stop-canary', from: rollout.canary, to: null };
    }
    return { rollout: { live: version, ...noCanary }, action: 'promote', from: rollout.live, to: version };
  });
}

/**
 * Makes the previous live version live again: where the most recent promote to the current one came
 * from, so a second rollback walks further back. No gate: a rollback must always be possible, and
 * the shell checks each manifest again when it loads it.
 */
export async function rollback(db: Db, remote: string, by: AuditBy): Promise<RemoteDeployment> {
  return changeRollout(db, remote, by, async (trx, rollout) => {
    const before = rollout.live === null ? null : await findVersionBefore(trx, remote, rollout.live);
    if (before === null || !(await findVersion(trx, remote, before))) {
      throw new Conflict(`${remote} has no earlier live version to roll back to.`);
    }
    return { rollout: { live: before, ...noCanary }, action: 'rollback', from: rollout.live, to: before };
  });
}

/** Serves `version` to `percent` of the users (the others keep the live one). */
export async function startCanary(
  db: Db,
  config: RegistryConfig,
  remote: string,
  version: number,
  percent: number,
  by: AuditBy,
): Promise<RemoteDeployment> {
  await checkAgain(db, config, remote, version);
  return changeRollout(db, remote, by, async (trx, rollout) => {
    await versionOf(trx, remote, version);
    if (rollout.live === null) throw new Conflict(`${remote} has no live version yet: promote one before a canary.`);
    if (rollout.live === version) {
      throw new Conflict(`Version ${version} of ${remote} is live already: a canary is another version.`);
    }
    return {
      rollout: { live: rollout.live, canary: version, canary_percent: percent },
      action: 'canary',
      from: rollout.canary,
      to: version,
      percent,
    };
  });
}

export async function stopCanary(db: Db, remote: string, by: AuditBy): Promise<RemoteDeployment> {
  return changeRollout(db, remote, by, async (_trx, rollout) => {
    if (rollout.canary === null) throw new Conflict(`${remote} has no canary running.`);
    return { rollout: { live: rollout.live, ...noCanary }, action: 'stop-canary', from: rollout.canary, to: null };
  });
}

/**
 * Retires the remote: no version is live any more, nor a canary, so the console loads nothing of
 * it and its pages, menu entries and extensions leave the composition. Its versions stay: promoting
 * one makes it live again (a rollback has nothing to return to).
 */
export async function retire(db: Db, remote: string, by: AuditBy): Promise<RemoteDeployment> {
  return changeRollout(db, remote, by, async (_trx, rollout) => {
    if (rollout.live === null) throw new Conflict(`${remote} has no live version to retire.`);
    return { rollout: { live: null, ...noCanary }, action: 'retire', from: rollout.live, to: null };
  });
}
