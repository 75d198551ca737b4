// The server-side Device Pick List (feature 'device-pages', docs/screens.md#server-side-pick-list):
// api/devices/ (a page of records in the console's order, filtered, or the records of given ids
// that pass the filters), api/devices/count/ and api/devices/hubs/. Same rights as api/get_status/: any signed-in console user. The work is in
// src/devices/pick-list.ts.
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { ALL_HUBS, type DeviceRecord } from '@veritas/shared/domain';
import type { StatusKey } from '../db/schema';
import {
  MAX_IDS,
  decodePosition,
  deviceCount,
  devicePage,
  devicesByIds,
  encodePosition,
  hubCodes,
  type DeviceFilter,
} from '../devices/pick-list';
import { BadRequest } from '../errors';
import { Text } from '../schemas';

const STATUSES = ['pending', 'submitted', 'verified', 'detached'] as const satisfies readonly StatusKey[];
/** The results the Result column shows: passed, and the codes of docs/field-scans.md#device-error-codes. */
const RESULTS = ['passed', ...Array.from({ length: 10 }, (_, n) => `E${String(n + 1).padStart(3, '0')}`)];
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 500;
const MAX_SEARCH_LENGTH = 256;
const MAX_HUB_LENGTH = 128;

/** One of `values` after trimming; empty text reads as absent, like a missing field. */
const Choice = <T extends string>(values: readonly T[], message: string) =>
  Type.Unsafe<T | ''>({
    type: 'string',
    transform: ['trim'],
    enum: ['', ...values],
    errorMessages: { missing: message, enum: message },
  });

const limitMessage = `limit must be a whole number from 1 to ${MAX_LIMIT}.`;
const idsMessage = `ids must be at most ${MAX_IDS} record ids (whole numbers from 1) separated by commas.`;
/** A record id as ids lists it: 1 and up, at most 16 digits (checked again as a safe integer). */
const RECORD_ID = /^[1-9]\d{0,15}$/;

/** The filters every call takes; each is optional, and empty text is the same as absent. */
const filterFields = {
  q: Type.Optional(
    Text(
      { missing: 'q must be text.', maxLength: `q must be at most ${MAX_SEARCH_LENGTH} characters.` },
      { minLength: 0, maxLength: MAX_SEARCH_LENGTH },
    ),
  ),
  hub: Type.Optional(
    Text(
      { missing: 'hub must be text.', maxLength: `hub must be at most ${MAX_HUB_LENGTH} characters.` },
      { minLength: 0, maxLength: MAX_HUB_LENGTH },
    ),
  ),
  status: Type.Optional(Choice(STATUSES, `status must be one of ${STATUSES.join(', ')}.`)),
  result: Type.Optional(Choice(RESULTS, 'result must be passed or a device error code from E001 to E010.')),
};

const FilterQuery = Type.Object(filterFields);

const PageQuery = Type.Object({
  ...filterFields,
  after: Type.Optional(
    Type.String({
      maxLength: 200,
      errorMessages: {
        missing: 'after must be the next value of an earlier page.',
        maxLength: 'after must be the next value of an earlier page.',
      },
    }),
  ),
  limit: Type.Optional(
    Type.String({
      transform: ['trim'],
      // '', or 1 to 500 without leading zeros.
      pattern: '^(|[1-9]\\d?|[1-4]\\d\\d|500)$',
      errorMessages: { missing: limitMessage, pattern: limitMessage },
    }),
  ),
  ids: Type.Optional(
    Type.String({
      transform: ['trim'],
      maxLength: MAX_IDS * 18,
      errorMessages: { missing: idsMessage, maxLength: idsMessage },
    }),
  ),
});

/**
 * The page's envelope. Its records are rendered to JSON by the database, as get_status's are
 * (src/records.ts: several times faster than building and serializing objects), so the body is
 * written as text and sent as it is: there is no row schema, the rows are DeviceRecord of
 * @veritas/shared, checked by their shape in records.ts and test/devices.test.ts.
 */
const PageAnswer = Type.Object({
  records: Type.Array(Type.Unsafe<DeviceRecord>({} as TSchema)),
  next: Type.Union([Type.String(), Type.Null()]),
});

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

export const deviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/devices/',
    { schema: { querystring: PageQuery, response: { 200: PageAnswer } } },
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
      // Text with a JSON type is sent as it is (see PageAnswer); the untyped reply takes it.
      const text: FastifyReply = reply;
      text.type('application/json; charset=utf-8').header('cache-control', 'no-store');
      return text.send(`{"records":[${page.records.join(',')}],"next":${JSON.stringify(page.next)}}`);
    },
  );

  app.get(
    '/api/devices/count/',
    { schema: { querystring: FilterQuery, response: { 200: Type.Object({ total: Type.Integer() }) } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { total: await deviceCount(app.db, filterOf(request.query)) };
    },
  );

  app.get(
    '/api/devices/hubs/',
    { schema: { response: { 200: Type.Object({ hubs: Type.Array(Type.String()) }) } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { hubs: await hubCodes(app.db) };
    },
  );
};
