// The server-side Device Pick List (feature 'device-pages', docs/screens.md#server-side-pick-list):
// api/devices/ (a page of records in the console's order, filtered, or the records of given ids
// that pass the filters), api/devices/count/ and api/devices/hubs/. Same rights as api/get_status/:
// any signed-in console user. The work is in src/devices/page-query.ts and pick-list.ts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import {
  DeviceCount,
  DeviceFilterQuery,
  DeviceHubs,
  DevicePage,
  DevicePageQuery,
  NoQuery,
} from '@veritas/shared/domain';
import { hubCodes } from './pick-list';
import { countDevices, devicePageText } from './page-query';

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
      const body = await devicePageText(app.db, request.query);
      // The body is JSON text already (devicePageText), sent as it is past DevicePage's
      // serializer; the untyped reply takes it.
      const text: FastifyReply = reply;
      text.type('application/json; charset=utf-8').header('cache-control', 'no-store');
      return text.send(body);
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
      return countDevices(app.db, request.query);
    },
  );

  const hubs = { tags, summary: 'The hub codes of the records', querystring: NoQuery, response: { 200: DeviceHubs } };
  app.get('/api/devices/hubs/', { schema: hubs }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { hubs: await hubCodes(app.db) };
  });
};
