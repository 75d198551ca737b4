// health/live/ and health/ready/ (docs/operations.md): liveness, readiness as the database
// reachable with every migration applied, and a closing server (SIGTERM) that finishes what it
// has started while it answers 503 to anything new, in the API's body with Retry-After.
import { demoSeed } from '../seed';
import http from 'node:http';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { api as veritasApi } from '../src/app';
import { API_PREFIX } from '@veritas/shared/domain';
import { EventHub } from '../src/events/hub';
import { createServer, openDatabase } from '../src/server';
import { ADMIN_PASSWORD, ADMIN_USERNAME, ENGINE, build } from './support/build';

const api = build({ server: { seed: demoSeed } });

test('health/live/ answers 200 to anyone, without a session', async () => {
  const answer = await api.client().get('health/live/');
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({ status: 'live' });
});

test('health/ready/ answers 200 when the database answers and holds every migration', async () => {
  const answer = await api.client().get('health/ready/');
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({ status: 'ready' });
});

test('health/ready/ answers 503 naming a migration the database has not applied', async () => {
  const [{ name }] = (
    await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(api.db.kysely)
  ).rows as [{ name: string }];
  await sql`delete from kysely_migration where name = ${name}`.execute(api.db.kysely);
  try {
    const answer = await api.client().get('health/ready/');
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(answer.body).toEqual({ detail: `Database migrations not applied: ${name}.` });
  } finally {
    await sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(
      api.db.kysely,
    );
  }
  expect((await api.client().get('health/ready/')).status).toBe(200);
});

test('health/ready/ answers 503 when the database cannot be reached, and liveness still 200', async () => {
  // A server whose database is gone: PostgreSQL at a port nothing listens on, or a closed SQLite file.
  const db =
    ENGINE === 'postgres'
      ? openDatabase({ dataDir: '', databaseUrl: 'postgres://nobody@127.0.0.1:9/none' })
      : openDatabase(api.database);
  if (ENGINE !== 'postgres') db.sqlite!.close();
  const app = Fastify({ logger: false });
  await app.register(veritasApi, { prefix: API_PREFIX, db, hub: new EventHub(db, app.log) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}${API_PREFIX}`;
  try {
    const ready = await fetch(`${base}/health/ready/`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('1');
    expect(await ready.json()).toEqual({ detail: 'The database cannot be reached.' });
    expect((await fetch(`${base}/health/live/`)).status).toBe(200);
  } finally {
    await app.close();
    if (ENGINE === 'postgres') await db.kysely.destroy();
  }
});

test('a closing server finishes the answer it is streaming, ending its connection with it, and answers 503 to a new request meanwhile', async () => {
  const server = await api.start();
  const admin = await api.signIn('admin_demo', 'Veritas@123');
  const cookie = admin.cookieHeader();
  // An answer under way: get_status, read slowly so it is still streaming when the close starts.
  // On a kept-alive connection: closed after the answer, it does not hold the stop up.
  const streamAgent = new http.Agent({ keepAlive: true });
  let streamConnectionClosed: Promise<unknown> = new Promise(() => {});
  const streaming = new Promise<{ status: number; records: number }>((resolve, reject) => {
    http
      .get(`${server.url}/veritas/api/get_status/`, { headers: { cookie }, agent: streamAgent }, (response) => {
        streamConnectionClosed = new Promise((closed) => response.socket.once('close', closed));
        const chunks: Buffer[] = [];
        response.pause();
        setTimeout(() => response.resume(), 300);
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            records: (JSON.parse(Buffer.concat(chunks).toString()) as unknown[]).length,
          }),
        );
      })
      .on('error', reject);
  });
  // A connection opened before the close, kept alive, used after it started.
  const agent = new http.Agent({ keepAlive: true });
  const getOn = (path: string) =>
    new Promise<number>((resolve, reject) =>
      http
        .get(`${server.url}/veritas/${path}`, { agent }, (response) =>
          response.resume().on('end', () => resolve(response.statusCode!)),
        )
        .on('error', reject),
    );
  expect(await getOn('health/ready/')).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 50));

  const closed = server.close();
  const during = await getOn('health/ready/').catch(() => 'refused');
  // The keep-alive connection is either told 503 or closed as idle: no new work is taken either way.
  expect([503, 'refused']).toContain(during);
  const { count } = await api.db.kysely
    .selectFrom('device_records')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  expect(await streaming).toEqual({ status: 200, records: Number(count) });
  await closed;
  // The server ends the kept-alive connection (else this waits for the test's timeout).
  await streamConnectionClosed;
  agent.destroy();
  streamAgent.destroy();
});

/** An answer on `agent`'s connection: status, headers and the body read as JSON. */
const answerOn = (agent: http.Agent, url: string, method = 'GET', body?: unknown) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: unknown }>((resolve, reject) => {
    const request = http.request(
      url,
      { method, agent, headers: { 'content-type': 'application/json' } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: JSON.parse(Buffer.concat(chunks).toString()) as unknown,
          }),
        );
      },
    );
    request.on('error', reject).end(body === undefined ? undefined : JSON.stringify(body));
  });

test('no 500 and no bare 503: a request on a kept-alive connection while the server closes answers 503 with the documented body and Retry-After', async () => {
  const { app } = await createServer({
    ...api.database,
    logger: false,
    adminUsername: ADMIN_USERNAME,
    adminPassword: ADMIN_PASSWORD,
  });
  // The close held after it began, before it ends the idle connections: the moment a request
  // reaches a connection kept alive (a proxy's, under load) as the server stops.
  let closeBegan!: () => void;
  const began = new Promise<void>((resolve) => (closeBegan = resolve));
  let letCloseGoOn!: () => void;
  const held = new Promise<void>((resolve) => (letCloseGoOn = resolve));
  app.addHook('preClose', async () => {
    closeBegan();
    await held;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}${API_PREFIX}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    expect((await answerOn(agent, `${base}/health/ready/`)).status).toBe(200);

    const closed = app.close();
    await began;
    // A sign-in: a write, whose screen reads `res` besides `detail`.
    const answer = await answerOn(agent, `${base}/user/login/`, 'POST', {
      username: ADMIN_USERNAME,
      password: ADMIN_PASSWORD,
    });
    const detail = 'This server instance is stopping. Try again in a moment.';
    expect(answer.status).toBe(503);
    expect(answer.headers).toMatchObject({
      'retry-after': '1',
      connection: 'close',
      'content-type': expect.stringContaining('application/json'),
      // The API's security headers, as on every answer.
      'x-frame-options': 'DENY',
    });
    // Not started: safe to repeat, which the console does for a write too (docs/errors.md).
    expect(answer.body).toEqual({ detail, res: detail, outcome: 'not-applied' });
    letCloseGoOn();
    await closed;
  } finally {
    letCloseGoOn();
    agent.destroy();
    await app.close();
  }
});
