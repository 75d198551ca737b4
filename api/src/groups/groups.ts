// Creating a group: its name defaults to its code, its code is unique, and its event of the live
// stream (docs/events.md#groups) is written in the same transaction.
import type { Static } from '@sinclair/typebox';
import type { CreateGroup } from '@veritas/shared/domain';
import { recordAudit, type AuditBy } from '../audit/trail';
import type { Db } from '../db/schema';
import { BadRequest } from '../http-errors';
import { groupEvent, writeEvents } from '../events/write';
import { findGroupByCode, findGroups, insertGroup, type NewGroup } from './repository';

export async function listGroups(db: Db): Promise<NewGroup[]> {
  return findGroups(db.kysely);
}

export async function createGroup(db: Db, by: AuditBy, input: Static<typeof CreateGroup>): Promise<NewGroup> {
  const { code, organization } = input;
  const name = (typeof input.name === 'string' && input.name.trim()) || code;
  if (await findGroupByCode(db.kysely, code))
    throw new BadRequest('code', `A group with code "${code}" already exists.`);
  const group = { name, code, organization };
  await db.transaction(async (trx) => {
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
