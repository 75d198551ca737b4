// The demo's cases (docs/cases.md): the field work opened them, each in its flagging scan's
// transaction; here the console's users work some of them through the cases' own rules, so the
// demo has cases in every state and with every disposition, notes, and a view shared with central_ops.
import { CASE_DISPOSITIONS, type Role } from '@veritas/shared/domain';
import type { RandomSource } from '@veritas/shared/testing/records';
import type { AuditBy } from '../src/audit/trail';
import { addCaseNote, assignCase, reopenCase, resolveCase, startReview, type UserCaseActor } from '../src/cases/cases';
import { saveCaseView } from '../src/cases/settings';
import type { Db } from '../src/db/schema';

const NOTES = [
  'Customer says the box was resealed by the courier.',
  'Photos requested from the Wishmaster.',
  'Serial checked against the invoice.',
  'Brand sticker covers another maker’s label.',
];

async function actorOf(db: Db, username: string): Promise<UserCaseActor | null> {
  const row = await db.kysely
    .selectFrom('users as u')
    .leftJoin('groups as g', 'g.id', 'u.group_id')
    .select(['u.id', 'u.username', 'u.role', 'g.code'])
    .where('u.username', '=', username)
    .executeTakeFirst();
  if (!row) return null;
  const by: AuditBy = {
    actor: { kind: 'user', id: String(row.id), name: row.username, role: row.role as Role },
    address: null,
  };
  return { id: row.id, username: row.username, role: row.role as Role, groupCode: row.code ?? null, by };
}

/** Works the demo's cases: about two in five stay open and unassigned, the rest go through each step. */
export async function workDemoCases(db: Db, rand: RandomSource): Promise<void> {
  const [central, incharge, admin] = await Promise.all([
    actorOf(db, 'central_demo'),
    actorOf(db, 'incharge_blr'),
    actorOf(db, 'admin_demo'),
  ]);
  if (!central || !incharge || !admin) return;
  const cases = await db.kysely.selectFrom('cases').select(['id', 'queue', 'version']).orderBy('id').execute();
  let resolved = 0;
  for (const { id, queue, version } of cases) {
    const roll = rand.next();
    if (roll < 0.4) continue;
    // BLR01's incharge works its hub's cases; central_ops the others.
    const actor = queue === 'BLR01' && rand.next() < 0.7 ? incharge : central;
    let summary = await assignCase(db, actor, id, actor.username, version);
    if (rand.next() < 0.3) await addCaseNote(db, actor, id, rand.pick(NOTES));
    if (roll < 0.55) continue;
    summary = await startReview(db, actor, id, summary.version);
    if (roll < 0.7) continue;
    const disposition = CASE_DISPOSITIONS[resolved++ % CASE_DISPOSITIONS.length]!;
    summary = await resolveCase(db, actor, id, { disposition, note: rand.pick(NOTES), version: summary.version });
    if (roll > 0.96) await reopenCase(db, actor, id, 'The customer sent new evidence.', summary.version);
  }
  await saveCaseView(db, admin, {
    name: 'Overdue fraud',
    filters: { reason: 'E005', overdue: '1' },
    shared_with: 'central_ops',
  });
}
