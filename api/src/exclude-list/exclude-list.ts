// The exclude list: the brands exempt from the manufacturer check of doorstep scans (E005/E006),
// e.g. brands whose devices carry other makers' radio modules.
import { recordAudit, type AuditBy } from '../audit/trail';
import type { Db } from '../db/schema';
import { Conflict, NotFound } from '../http-errors';
import { deleteExcludedBrand, findExcludedBrands, insertExcludedBrand } from './repository';

export async function listExcludedBrands(db: Db): Promise<{ brand: string }[]> {
  return findExcludedBrands(db.kysely);
}

/** The audit entry of a change of the list: the brand, on it or not before and after. */
const listChange = (brand: string, listed: boolean) =>
  ({
    action: 'exclude-list.changed',
    outcome: 'success',
    target: { kind: 'exclude-list', label: brand },
    details: { before: { excluded: !listed }, after: { excluded: listed } },
  }) as const;

export async function excludeBrand(db: Db, by: AuditBy, brand: string): Promise<void> {
  await db.transaction(async (trx) => {
    if (!(await insertExcludedBrand(trx, brand))) throw new Conflict(`${brand} is already on the exclude list.`);
    await recordAudit(trx, db, by, listChange(brand, true));
  });
}

export async function includeBrand(db: Db, by: AuditBy, brand: string): Promise<void> {
  await db.transaction(async (trx) => {
    if (!(await deleteExcludedBrand(trx, brand))) throw new NotFound(`${brand} is not on the exclude list.`);
    await recordAudit(trx, db, by, listChange(brand, false));
  });
}
