// The page document while PostgreSQL is away (docs/operations.md#database-restarts): like every
// call, 503 with Retry-After and the API's error body, never a 500. On a cluster of its own,
// which it stops (the way back is database-restart.test.ts's).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from '../src/server';
import { ADMIN_PASSWORD, ADMIN_USERNAME, Client, onPostgres } from './support/build';
import { startOwnPgCluster, type PgCluster } from './support/pg-cluster';

const SHELL_DOCUMENT =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Veritas</title></head><body><div id="root"></div></body></html>';

let cluster: PgCluster | undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-document-'));
const closers: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  cluster?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

onPostgres('the page document with the database away: 503 with Retry-After and the error body, never 500', async () => {
  const own = await startOwnPgCluster();
  cluster = own.cluster;
  const { app, close, sendPageDocument, registry } = await createServer({
    dataDir,
    databaseUrl: own.databaseUrl,
    logger: false,
    adminUsername: ADMIN_USERNAME,
    adminPassword: ADMIN_PASSWORD,
    shellDocument: SHELL_DOCUMENT,
  });
  closers.push(close);
  await app.register(async (consoleScope) => consoleScope.setNotFoundHandler(sendPageDocument));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const client = new Client(url);
  await client.login(ADMIN_USERNAME, ADMIN_PASSWORD);
  const cookie = client.cookieHeader();
  const dashboard = () => fetch(`${url}/Dashboard`, { headers: { cookie } });
  expect((await dashboard()).status).toBe(200);

  cluster.stop();
  cluster = undefined;
  const away = await dashboard();
  expect(away.status).toBe(503);
  expect(away.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
  expect(await away.json()).toEqual(
    expect.objectContaining({ detail: 'The database is unavailable. Try again in a moment.' }),
  );
  // The shell's files are sent meanwhile: the page policy's allowed origins, read again once their
  // 5 s are over, answer the last list read instead of failing every file of the console (500).
  await new Promise((resolve) => setTimeout(resolve, 5100));
  expect(await registry.allowedOrigins()).toEqual([]);
});
