// The exclude list: the brands exempt from the manufacturer check of doorstep scans (E005/E006),
// e.g. brands whose devices carry other makers' radio modules.
import type { Db } from '../db/schema';
import { Conflict, NotFound } from '../errors';
import { deleteExcludedBrand, findExcludedBrands, insertExcludedBrand } from './repository';

export async function listExcludedBrands(db: Db): Promise<{ brand: string }[]> {
  return findExcludedBrands(db.kysely);
}

export async function excludeBrand(db: Db, brand: string): Promise<void> {
  if (!(await insertExcludedBrand(db.kysely, brand))) throw new Conflict(`${brand} is already on the exclude list.`);
}

export async function includeBrand(db: Db, brand: string): Promise<void> {
  if (!(await deleteExcludedBrand(db.kysely, brand))) throw new NotFound(`${brand} is not on the exclude list.`);
}
