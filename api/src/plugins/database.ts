// The database on the API's instance (`app.db`), for every route plugin registered after it.
// createServer opens and closes it; this only hands it over.
import fp from 'fastify-plugin';
import type { Db } from '../db/schema';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

export const database = fp<{ db: Db }>(
  async (app, { db }) => {
    app.decorate('db', db);
  },
  { name: 'database' },
);
