// The server-side Device Pick List (feature 'device-pages', docs/screens.md#server-side-pick-list):
// api/devices/ (a page of records in the console's order, filtered, or the records of given ids
// that pass the filters), api/devices/count/ and api/devices/hubs/. Same rights as api/get_status/: any signed-in console user. The work is in
// src/devices/pick-list.ts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import {
  ALL_HUBS,
  DeviceCount,
  DeviceFilterQuery,
  DeviceHubs,
  DevicePage,
  DevicePageQuery,
  MAX_IDS,
  NoQuery,
  idsMessage,
} from '@veritas/shared/domain';
import type { StatusKey } from '../db/schema';
import {
  decodePosition,
  deviceCount,
  devicePage,
  devicesByIds,
  encodePosition,
  hubCodes,
  type DeviceFilter,
} from '../devices/pick-list';
import { BadRequest } from '../errors';

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

function filterOf(query: { q?: string; hub?: string; status?: StatusKey | ''; result?: string }): DeviceFilter {
  const hub = query.hub ?? '';
  return {
    // filterRows: the query trimmed (the schema did) and lower-cased; a hub compared lower-cased, 'all' for any.
    needle: (query.q ?? '').toLowerCase(),
    hubKey: hub === '' || hub === ALL_HUBS ? null : hub.toLowerCase(),
    status: query.status || null,
    result: query.result || null,
  };
}

const tags = ['devices'];

export const deviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/devices/',
    {
      schema: {
        tags,
        summary: "A page of the pick list's records, or the records of given ids that pass the filters",
        querystring: DevicePageQuery,
        response: { 200: DevicePage },
      },
    },
    async (request, reply) => {
      const { after, limit, ids } = request.query;
      let page: { records: string[]; next: string | null };
      if (ids) {
        // Named records, not a page: nothing to continue after, no page size.
        if (after || limit)
          throw new BadRequest(after ? 'after' : 'limit', 'With ids, after and limit do not apply: leave them out.');
        page = { records: await devicesByIds(app.db, filterOf(request.query), idsOf(ids)), next: null };
      } else {
        const position = after ? decodePosition(after) : null;
        if (after && position === null) {
          throw new BadRequest('after', 'after must be the next value of an earlier page, as the server wrote it.');
        }
        const found = await devicePage(
          app.db,
          filterOf(request.query),
          position,
          limit ? Number(limit) : DEFAULT_LIMIT,
        );
        page = { records: found.records, next: found.next && encodePosition(found.next) };
      }
      // The records are rendered to JSON by the database, as get_status's are (src/records.ts: several
      // times faster than building and serializing objects), so the body is written as text with a
      // JSON type and sent as it is, past DevicePage's serializer; the untyped reply takes it.
      const text: FastifyReply = reply;
      text.type('application/json; charset=utf-8').header('cache-control', 'no-store');
      return text.send(`{"records":[${page.records.join(',')}],"next":${JSON.stringify(page.next)}}`);
    },
  );

  app.get(
    '/api/devices/count/',
    {
      schema: {
        tags,
        summary: 'How many records pass the filters',
        querystring: DeviceFilterQuery,
        response: { 200: DeviceCount },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { total: await deviceCount(app.db, filterOf(request.query)) };
    },
  );

  const hubs = { tags, summary: 'The hub codes of the records', querystring: NoQuery, response: { 200: DeviceHubs } };
  app.get('/api/devices/hubs/', { schema: hubs }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { hubs: await hubCodes(app.db) };
  });
};
