// The shell's build answered from memory (src/registry/static-files.ts), on a bare Fastify app.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { readShellFiles, shellFileRoutes } from '../src/registry/static-files';
import { rawAnswer } from './support/raw-answer';

let dir: string;
let app: FastifyInstance;
const built = (name: string) => fs.readFileSync(path.join(dir, name));

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-shell-'));
  const write = (name: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  };
  write('main.1a2b3c4d.js', 'console.log("as built");');
  write('main.1a2b3c4d.js.br', 'brotli bytes');
  write('main.1a2b3c4d.js.gz', 'gzip bytes');
  write('tiny.5e6f7a8b.js', 'tiny');
  write('tiny.5e6f7a8b.js.gz', 'tiny gzip');
  write('mf-manifest.json', '{"name":"shell"}');
  write('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  write('page-load.json', '{"chunks":[]}');
  write('licenses/notice.txt', 'notice');
  app = Fastify();
  shellFileRoutes(app, readShellFiles(dir));
  await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function request(method: string, url: string, headers: Record<string, string> = {}) {
  const { port } = app.server.address() as AddressInfo;
  return rawAnswer(`http://127.0.0.1:${port}${url}`, { method, headers });
}
const get = (url: string, headers: Record<string, string> = {}) => request('GET', url, headers);

test('a script goes out as its build compressed it: brotli first, else gzip, else as built; cached for good', async () => {
  for (const [accepted, encoding, file] of [
    ['gzip, deflate, br', 'br', 'main.1a2b3c4d.js.br'],
    ['gzip', 'gzip', 'main.1a2b3c4d.js.gz'],
    ['br;q=0.5, gzip', 'gzip', 'main.1a2b3c4d.js.gz'],
    ['identity', undefined, 'main.1a2b3c4d.js'],
    ['br;q=0, gzip;q=0', undefined, 'main.1a2b3c4d.js'],
  ] as const) {
    const answer = await get('/main.1a2b3c4d.js', { 'accept-encoding': accepted });
    expect([accepted, answer.status, answer.headers['content-encoding']]).toEqual([accepted, 200, encoding]);
    expect(answer.bytes.equals(built(file))).toBe(true);
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers.vary).toBe('Accept-Encoding');
  }
  const plain = await get('/main.1a2b3c4d.js');
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.bytes.equals(built('main.1a2b3c4d.js'))).toBe(true);
});

test('a file its build did not compress in brotli goes out in gzip to a browser that takes both', async () => {
  const answer = await get('/tiny.5e6f7a8b.js', { 'accept-encoding': 'gzip, deflate, br' });
  expect(answer.headers['content-encoding']).toBe('gzip');
  expect(answer.bytes.toString()).toBe('tiny gzip');
});

test("the console's icon (favicon.svg, a name that stays) goes out as SVG and is revalidated: no-cache", async () => {
  const answer = await get('/favicon.svg');
  expect([answer.status, answer.headers['content-type'], answer.headers['cache-control']]).toEqual([
    200,
    'image/svg+xml',
    'no-cache',
  ]);
});

test('only a file named by its content is cached for good; every other name is revalidated', async () => {
  const cacheControl = async (url: string) => (await get(url)).headers['cache-control'];
  expect(await cacheControl('/tiny.5e6f7a8b.js')).toBe('public, max-age=31536000, immutable');
  for (const url of ['/page-load.json', '/licenses/notice.txt', '/mf-manifest.json'])
    expect([url, await cacheControl(url)]).toEqual([url, 'no-cache']);
});

test('a file whose name stays (mf-manifest.json) is revalidated: no-cache, and 304 while its ETag matches', async () => {
  const first = await get('/mf-manifest.json');
  expect(first.headers['cache-control']).toBe('no-cache');
  expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
  const etag = String(first.headers.etag);
  expect(etag).toMatch(/^"[\w-]+"$/);
  const again = await get('/mf-manifest.json', { 'if-none-match': `"other", ${etag}` });
  expect(again.status).toBe(304);
  expect(again.bytes.length).toBe(0);
  expect((await get('/mf-manifest.json', { 'if-none-match': '"other"' })).status).toBe(200);
});

test('HEAD answers the headers without the body; files in folders are served; the .br and .gz files are not, by their own names', async () => {
  const head = await request('HEAD', '/main.1a2b3c4d.js', { 'accept-encoding': 'br' });
  expect(head.status).toBe(200);
  expect(head.headers['content-length']).toBe(String(built('main.1a2b3c4d.js.br').length));
  expect(head.bytes.length).toBe(0);
  expect((await get('/licenses/notice.txt')).bytes.toString()).toBe('notice');
  expect((await get('/main.1a2b3c4d.js.br')).status).toBe(404);
  expect((await get('/main.1a2b3c4d.js.gz')).status).toBe(404);
});
