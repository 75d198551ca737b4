// Creating a group: its name defaults to its code, its code is unique, and its event of the live
// stream (docs/events.md#groups) is written in the same transaction.
import type { Organization } from '@veritas/shared/domain';
import type { Db } from '../db/schema';
import { BadRequest } from '../errors';
import { groupEvent, writeEvents } from '../events/write';
import { findGroupByCode, findGroups, insertGroup, type NewGroup } from './repository';

export async function listGroups(db: Db): Promise<NewGroup[]> {
  return findGroups(db.kysely);
}

export interface GroupInput {
  code: string;
  organization: Organization;
  /** The name shown for the group: non-blank text, else the code (anything else reads as absent). */
  name?: unknown;
}

export async function createGroup(db: Db, input: GroupInput): Promise<NewGroup> {
  const { code, organization } = input;
  const name = (typeof input.name === 'string' && input.name.trim()) || code;
  if (await findGroupByCode(db.kysely, code))
    throw new BadRequest('code', `A group with code "${code}" already exists.`);
  const group = { name, code, organization };
  await db.transaction(async (trx) => {
    await insertGroup(trx, group);
    await writeEvents(trx, db, [groupEvent(group)]);
  });
  return group;
}
