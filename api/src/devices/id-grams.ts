// The one- and two-character pieces of the stored tracking IDs, lower-cased: tracking_id_grams
// (migration 012). A search of one or two characters is found by no trigram index, so learning
// that no ID holds it means reading every tracking ID, seconds at millions of records; this table
// answers it at once (pick-list.ts, docs/benchmarks.md#server-side-pick-list-and-tracking-id-search).
//
// Every write that stores records adds their pieces first, before the records (the upload's
// store-records.ts, the bulk loader, migration 012 for the records stored before it), so the
// table holds at least every stored record's pieces: a piece whose records never committed only
// costs that search its read. Records are never deleted nor their tracking IDs changed. Only
// ASCII pieces are kept (the upload's rule for tracking IDs); a search with another character is
// not answered from here.
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema';

/** ASCII character codes. */
const ASCII = 128;
/** A piece's slot in a table of every ASCII piece: a character c is c, a pair (a, b) ASCII + a × ASCII + b. */
const SLOTS = ASCII + ASCII * ASCII;

const slotText = (slot: number) =>
  slot < ASCII
    ? String.fromCharCode(slot)
    : String.fromCharCode(Math.floor((slot - ASCII) / ASCII), (slot - ASCII) % ASCII);

/** ASCII upper case to lower case, as lower() does in both databases; other codes as they are. */
const lowerCode = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code);

/**
 * The slots of the pieces of `trackingIds` that `known` does not mark. Spelt out over character
 * codes, as it runs for every stored record: a Set of strings cost the upload a few per cent.
 */
function newSlots(trackingIds: Iterable<string>, known: Uint8Array): Set<number> {
  const found = new Set<number>();
  for (const raw of trackingIds) {
    // Non-ASCII letters may lower-case into ASCII (K, the Kelvin sign, into k).
    const id = /\P{ASCII}/u.test(raw) ? raw.toLowerCase() : raw;
    let previous = -1;
    for (let i = 0; i < id.length; i++) {
      const code = lowerCode(id.charCodeAt(i));
      if (code < ASCII) {
        if (!known[code]) found.add(code);
        if (previous >= 0) {
          const pair = ASCII + previous * ASCII + code;
          if (!known[pair]) found.add(pair);
        }
        previous = code;
      } else {
        previous = -1;
      }
    }
  }
  return found;
}

/**
 * Adds the pieces of `trackingIds` that `known` does not mark to the table, then marks them. In
 * one order, so that two writers adding the same ones cannot deadlock.
 */
async function addPieces(kysely: Kysely<Database>, trackingIds: Iterable<string>, known: Uint8Array): Promise<void> {
  const slots = newSlots(trackingIds, known);
  if (slots.size === 0) return;
  const grams = [...slots].sort((a, b) => a - b).map(slotText);
  await kysely
    .insertInto('tracking_id_grams')
    .values(grams.map((gram) => ({ gram })))
    .onConflict((oc) => oc.column('gram').doNothing())
    .execute();
  for (const slot of slots) known[slot] = 1;
}

/** Per database: the pieces this process knows the table holds (it never loses one). */
const knownByDb = new WeakMap<Db, Uint8Array>();

/** Adds the pieces of `trackingIds` to the table, before the records holding them are stored. */
export async function recordIdGrams(db: Db, trackingIds: Iterable<string>): Promise<void> {
  let known = knownByDb.get(db);
  if (!known) {
    known = new Uint8Array(SLOTS);
    knownByDb.set(db, known);
  }
  await addPieces(db.kysely, trackingIds, known);
}

/** Records read per query when filling the table from device_records. */
const FILL_CHUNK = 50_000;

/** Adds the pieces of every stored record, reading them by id a chunk at a time (migration 012, the bulk loader). */
export async function fillIdGrams(kysely: Kysely<Database>): Promise<void> {
  const known = new Uint8Array(SLOTS);
  let after = 0;
  for (;;) {
    const rows = await kysely
      .selectFrom('device_records')
      .select(['id', 'tracking_id'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(FILL_CHUNK)
      .execute();
    if (rows.length === 0) return;
    await addPieces(
      kysely,
      rows.map((row) => row.tracking_id),
      known,
    );
    after = rows[rows.length - 1]!.id;
  }
}

/**
 * False when no stored tracking ID holds `needle` (trimmed and lower-cased, one or two
 * characters); true when one may.
 */
export async function someIdMayHold(db: Db, needle: string): Promise<boolean> {
  if (/\P{ASCII}/u.test(needle)) return true;
  const piece = await db.kysely
    .selectFrom('tracking_id_grams')
    .select('gram')
    .where('gram', '=', needle)
    .executeTakeFirst();
  return piece !== undefined;
}
