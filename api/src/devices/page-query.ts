// The pick list's calls read from their query strings (docs/screens.md#server-side-pick-list):
// the filters, the ids of named records, and the position a page continues after, as the server
// wrote it in the previous page's `next`.
import type { Static } from '@sinclair/typebox';
import {
  ALL_HUBS,
  MAX_IDS,
  idsMessage,
  type DeviceCount,
  type DeviceFilterQuery,
  type DevicePageQuery,
} from '@veritas/shared/domain';
import type { Db } from '../db/schema';
import { BadRequest } from '../http-errors';
import { decodePosition, deviceCount, devicePage, devicesByIds, encodePosition } from './pick-list';
import { COUNT_CAP, type DeviceFilter } from './pick-list-query';

const DEFAULT_LIMIT = 100;
/** A record id as ids lists it: 1 and up, at most 16 digits (checked again as a safe integer). */
const RECORD_ID = /^[1-9]\d{0,15}$/;

/** The record ids of `ids`, each once; a 400 naming ids unless they are 1 to MAX_IDS record ids. */
function idsOf(text: string): number[] {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length > MAX_IDS || !parts.every((part) => RECORD_ID.test(part) && Number.isSafeInteger(Number(part)))) {
    throw new BadRequest('ids', idsMessage);
  }
  return [...new Set(parts.map(Number))];
}

function filterOf(query: Static<typeof DeviceFilterQuery>): DeviceFilter {
  const hub = query.hub ?? '';
  return {
    // filterRows: the query trimmed (the schema did) and lower-cased; a hub compared lower-cased, 'all' for any.
    needle: (query.q ?? '').toLowerCase(),
    hubKey: hub === '' || hub === ALL_HUBS ? null : hub.toLowerCase(),
    status: query.status || null,
    result: query.result || null,
  };
}

/**
 * api/devices/'s answer as JSON text: a page of records, or the records of given ids. The records
 * are rendered to JSON by the database, as get_status's are (src/devices/record-json.ts: several times faster
 * than building and serializing objects), so the body is assembled here as text.
 */
export async function devicePageText(db: Db, query: Static<typeof DevicePageQuery>): Promise<string> {
  const { after, limit, ids } = query;
  let page: { records: string[]; next: string | null };
  if (ids) {
    // Named records, not a page: nothing to continue after, no page size.
    if (after || limit)
      throw new BadRequest(after ? 'after' : 'limit', 'With ids, after and limit do not apply: leave them out.');
    page = { records: await devicesByIds(db, filterOf(query), idsOf(ids)), next: null };
  } else {
    const position = after ? decodePosition(after) : null;
    if (after && position === null) {
      throw new BadRequest('after', 'after must be the next value of an earlier page, as the server wrote it.');
    }
    const found = await devicePage(db, filterOf(query), position, limit ? Number(limit) : DEFAULT_LIMIT);
    page = { records: found.records, next: found.next && encodePosition(found.next) };
  }
  return `{"records":[${page.records.join(',')}],"next":${JSON.stringify(page.next)}}`;
}

/** api/devices/count/: how many records pass the query's filters; past COUNT_CAP matches of a search, `more`. */
export async function countDevices(
  db: Db,
  query: Static<typeof DeviceFilterQuery>,
): Promise<Static<typeof DeviceCount>> {
  const filter = filterOf(query);
  const total = await deviceCount(db, filter);
  return filter.needle && total > COUNT_CAP ? { total: COUNT_CAP, more: true } : { total };
}
