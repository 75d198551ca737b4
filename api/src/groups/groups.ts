// Creating a group: its name defaults to its code, its code and its name are unique ignoring case, and its event
// of the live stream (docs/events.md#groups) is written in the same transaction.
import type { Static } from '@sinclair/typebox';
import type { CreateGroup } from '@veritas/shared/domain';
import { recordAudit, type AuditBy } from '../audit/trail';
import { lockUntilCommit } from '../db/engines';
import type { Db } from '../db/schema';
import { BadRequest } from '../http-errors';
import { groupEvent, writeEvents } from '../events/write';
import { isWellFormedText, notWellFormed } from '../schemas';
import { findGroups, insertGroup, type NewGroup } from './repository';

/** The advisory lock of a group's creation (PostgreSQL): a constant no other lock of the API uses. */
const GROUPS_LOCK = 0x67_72_6f_75_70; // 'group'

export async function listGroups(db: Db): Promise<NewGroup[]> {
  return findGroups(db.kysely);
}

/** A group's name, as the user form's Group choices list it. */
const MAX_NAME_LENGTH = 64;

/**
 * The name shown for a new group: non-blank text, else its code. Text the API cannot store as sent
 * (a NUL) or too long is refused, and so is a name another group has: the Group choices of the
 * user form are names, and two alike could not be told apart.
 */
function groupName(input: unknown, code: string): string {
  const name = (typeof input === 'string' && input.trim()) || code;
  if (!isWellFormedText(name)) throw new BadRequest('name', notWellFormed('name'));
  if (name.length > MAX_NAME_LENGTH) throw new BadRequest('name', `Name may be at most ${MAX_NAME_LENGTH} characters.`);
  return name;
}

export async function createGroup(db: Db, by: AuditBy, input: Static<typeof CreateGroup>): Promise<NewGroup> {
  const { code, organization } = input;
  const name = groupName(input.name, code);
  const group = { name, code, organization };
  await db.transaction(async (trx) => {
    // The check and the insert under one lock, so that two instances creating 'blr01' and 'BLR01'
    // at once cannot both pass the check (a unique index cannot say "ignoring case" the same way
    // on both engines).
    await lockUntilCommit(trx, db, GROUPS_LOCK);
    // Ignoring case: a hub code is matched so wherever it is read (an upload's rows, the Dashboard's
    // address), and the Dashboard lists names lower-cased. Compared here rather than in SQL, where
    // SQLite's lower() folds ASCII only; the groups are few.
    const groups = await findGroups(trx);
    const alike = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
    const sameCode = groups.find((existing) => alike(existing.code, code));
    if (sameCode) throw new BadRequest('code', `A group with code "${sameCode.code}" already exists.`);
    const sameName = groups.find((existing) => alike(existing.name, name));
    if (sameName) throw new BadRequest('name', `A group named "${sameName.name}" already exists.`);
    await insertGroup(trx, group);
    await recordAudit(trx, db, by, {
      action: 'group.created',
      outcome: 'success',
      target: { kind: 'group', label: code },
      details: { after: group },
    });
    await writeEvents(trx, db, [groupEvent(group)]);
  });
  return group;
}
