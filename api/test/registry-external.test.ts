// External builds (docs/deploying-a-remote.md#a-teams-own-cdn): a team's own https CDN, on an
// allowed origin, fetched and checked against the integrity given. A local https server with a
// self-signed certificate stands in for the CDN, reached through createServer's registryFetch.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { build } from './support/build';
import { CONSOLE_SHARED, entryOf, fakeBuild, sriOf } from './support/registry';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-cdn-'));
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    path.join(folder, 'key.pem'),
    '-out',
    path.join(folder, 'cert.pem'),
  ],
  { stdio: 'ignore' },
);
const cert = fs.readFileSync(path.join(folder, 'cert.pem'));
const agent = new Agent({ connect: { ca: cert } });
const registryFetch = ((url: string, init: RequestInit) =>
  undiciFetch(url, { ...(init as object), dispatcher: agent })) as unknown as typeof fetch;

const files = fakeBuild('dashboard', { marker: 'cdn' });
const cdn = https.createServer({ key: fs.readFileSync(path.join(folder, 'key.pem')), cert }, (request, response) => {
  const file = files.find((f) => `/builds/1/${f.path}` === request.url);
  response.writeHead(file ? 200 : 404).end(file?.bytes);
});
let origin = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(cdn.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => cdn.close(resolve));
  await agent.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

const api = build({ server: { consoleShared: CONSOLE_SHARED, registryFetch } });
const integrity = sriOf(entryOf(files).bytes);
const publish = (body: Record<string, string>) => api.superAdmin.post('registry/remotes/dashboard/versions/', body);

test('a build on an origin not allowed is refused', async () => {
  const answer = await publish({ baseUrl: `${origin}/builds/1/`, integrity });
  expect(answer.status).toBe(409);
  expect(answer.body.detail).toBe(
    `${origin} is not an allowed origin: a super_admin must allow it before builds are published from it.`,
  );
});

test('an entry script whose integrity is not the one given is refused', async () => {
  expect((await api.superAdmin.post('registry/origins/', { origin })).status).toBe(201);
  const wrong = sriOf(Buffer.from('another script'));
  const answer = await publish({ baseUrl: `${origin}/builds/1/`, integrity: wrong });
  expect([answer.status, answer.body.detail]).toEqual([
    409,
    `integrity mismatch: ${origin}/builds/1/remoteEntry.js is ${integrity}, not ${wrong}.`,
  ]);
  const missing = await publish({ baseUrl: `${origin}/builds/2/`, integrity });
  expect([missing.status, missing.body.detail]).toEqual([
    409,
    `${origin}/builds/2/mf-manifest.json could not be fetched: it answered 404.`,
  ]);
});

test('a good https build becomes an external version, served from its own origin', async () => {
  const answer = await publish({ baseUrl: `${origin}/builds/1/`, integrity: sriOf(entryOf(files).bytes, 'sha256') });
  expect(answer.status).toBe(201);
  expect(answer.body.version).toMatchObject({
    version: 1,
    source: 'external',
    integrity,
    bytes: 0,
    manifestUrl: `${origin}/builds/1/mf-manifest.json`,
  });
  expect((await publish({ baseUrl: `${origin}/builds/1/`, integrity })).status).toBe(200);
  await api.superAdmin.post('registry/remotes/dashboard/promote/', { version: 1 });
  const { remotes } = (await (await fetch(`${api.url}/remotes.json`)).json()) as { remotes: Record<string, unknown> };
  expect(remotes.dashboard).toEqual({ entry: `${origin}/builds/1/mf-manifest.json`, version: 1, integrity });
});

test("the allowed origins are exported for the console page's policy", async () => {
  const server = await api.start({ consoleShared: CONSOLE_SHARED });
  expect(await server.registry.allowedOrigins()).toEqual([origin]);
  await server.close();
});
