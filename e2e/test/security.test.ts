// Security headers on every origin, /remotes.json from configuration only, the console under its
// Content-Security-Policy, framing refused, and one refresh for any burst of 401s.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { BrowserContext, Page } from 'playwright-core';
import { DEMO, baseUrl, freshPagePerTest, signIn } from '../support/browser';
import { consoleHttp } from '../support/console-http';
import { repoRoot } from '../support/server';
import { workspaceRemotes } from '../support/workspace';

const REMOTE_NAMES = workspaceRemotes().map((remote) => remote.name);

/** /remotes.json of a viewer without a session: the live version of each remote, a path of the console's origin. */
async function liveEntries(): Promise<Record<string, { entry: string }>> {
  const { body } = await headersOf(new URL('/remotes.json', baseUrl()).toString());
  return (JSON.parse(body) as { remotes: Record<string, { entry: string }> }).remotes;
}

/**
 * The headers of a GET, sent with any headers (fetch cannot forge Host, nor leave the body as
 * sent, so node:http); the body as text and as the bytes sent.
 */
function headersOf(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({ status: response.statusCode!, headers: response.headers, body: bytes.toString('utf8'), bytes });
        });
      })
      .on('error', reject);
  });
}

/** The src of every script element of a page (the built page leaves attribute values unquoted). */
const scriptSources = (html: string) =>
  [...html.matchAll(/<script\b[^>]*\bsrc=["']?([^"'\s>]+)/g)].map((match) => match[1]!);

function directives(csp: string | string[] | undefined): Map<string, string[]> {
  expect(typeof csp).toBe('string');
  return new Map(
    (csp as string)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

function expectCommonHeaders(headers: http.IncomingHttpHeaders) {
  expect(directives(headers['content-security-policy']).get('frame-ancestors')).toEqual(["'none'"]);
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
}

describe('security headers on every origin', () => {
  test.each(['/', '/login', '/ListDevices', '/remotes.json', '/veritas/user/is_LoggedIn/'])(
    'console origin %s: CSP with frame-ancestors none, X-Frame-Options DENY, nosniff, strict-origin-when-cross-origin',
    async (path) => {
      const { headers } = await headersOf(new URL(path, baseUrl()).toString());
      expectCommonHeaders(headers);
    },
  );

  test("the console page's CSP allows scripts and fetches from itself only (no allowed origin yet), without 'unsafe-eval' or inline scripts", async () => {
    const { headers, body } = await headersOf(new URL('/login', baseUrl()).toString());
    const csp = directives(headers['content-security-policy']);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(headers['content-security-policy']).not.toContain('unsafe-eval');
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
    // Every script of the page is a file of the console's own origin; no inline one runs: the one
    // element without src is the composition, JSON data the browser never executes.
    expect(scriptSources(body).length).toBeGreaterThan(0);
    for (const src of scriptSources(body)) expect(new URL(src, baseUrl()).origin).toBe(new URL(baseUrl()).origin);
    const inline = [...body.matchAll(/<script(?![^>]*\bsrc=)[^>]*>/g)].map((match) => match[0]);
    expect(inline).toEqual(['<script type="application/json" id="veritas-composition">']);
  });

  test('a hashed script file of the console carries the headers too', async () => {
    const { body } = await headersOf(new URL('/login', baseUrl()).toString());
    const [script] = scriptSources(body);
    const { status, headers } = await headersOf(new URL(script!, baseUrl()).toString());
    expect(status).toBe(200);
    expectCommonHeaders(headers);
  });

  test.each(['/remotes/devices/', '/remotes/devices/0123456789abcdef', '/remotes/devices/nothing.js', '/remotes/x'])(
    '%s, no file of a version: 404 with the registry files’ headers, never the page document',
    async (path) => {
      const { status, headers, body } = await headersOf(new URL(path, baseUrl()).toString());
      expect([status, headers['content-type'], JSON.parse(body)]).toEqual([
        404,
        'application/json; charset=utf-8',
        { detail: 'Not found' },
      ]);
      expect(directives(headers['content-security-policy']).get('default-src')).toEqual(["'none'"]);
      expectCommonHeaders(headers);
    },
  );

  test("the shell's scripts go out as its build compressed them (brotli, else gzip), with the headers", async () => {
    const { body } = await headersOf(new URL('/login', baseUrl()).toString());
    const [script] = scriptSources(body);
    const url = new URL(script!, baseUrl()).toString();
    const built = path.join(repoRoot, 'shell/dist', new URL(url).pathname);
    for (const [accepted, encoding, file] of [
      ['gzip, deflate, br', 'br', `${built}.br`],
      ['gzip', 'gzip', `${built}.gz`],
      ['identity', undefined, built],
    ] as const) {
      const answer = await headersOf(url, { 'accept-encoding': accepted });
      expect([accepted, answer.headers['content-encoding']]).toEqual([accepted, encoding]);
      expect(answer.bytes.equals(readFileSync(file))).toBe(true);
      expectCommonHeaders(answer.headers);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  test.each(REMOTE_NAMES)(
    'the registry version of %s: its manifest and entry carry the headers and are cached for good',
    async (name) => {
      const manifestUrl = new URL((await liveEntries())[name]!.entry, baseUrl()).toString();
      const manifest = await headersOf(manifestUrl);
      expect(manifest.status).toBe(200);
      expectCommonHeaders(manifest.headers);
      expect(manifest.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const { metaData } = JSON.parse(manifest.body) as { metaData: { remoteEntry: { name: string } } };
      const entry = await headersOf(new URL(metaData.remoteEntry.name, manifestUrl).toString());
      expect(entry.status).toBe(200);
      expectCommonHeaders(entry.headers);
    },
  );
});

describe('/remotes.json comes from the registry, never from the request', () => {
  test('a forged Host (and forwarded host and protocol) gets the same paths of the console’s own origin', async () => {
    const forged = await headersOf(new URL('/remotes.json', baseUrl()).toString(), {
      Host: 'attacker.example:8080',
      'X-Forwarded-Host': 'attacker.example',
      'X-Forwarded-Proto': 'https',
    });
    expect(forged.status).toBe(200);
    expect(forged.body).not.toContain('attacker');
    const entries = (JSON.parse(forged.body) as { remotes: Record<string, { entry: string }> }).remotes;
    expect(Object.keys(entries).sort()).toEqual([...REMOTE_NAMES].sort());
    for (const { entry } of Object.values(entries))
      expect(entry).toMatch(/^\/remotes\/[a-z]+\/[0-9a-f]{16}\/mf-manifest\.json$/);
    expect(entries).toEqual(await liveEntries());
  });
});

describe('in the browser', () => {
  const tab = freshPagePerTest();
  let page: Page;
  let context: BrowserContext;
  beforeEach(() => {
    page = tab.page();
    context = tab.context();
  });

  test('the console loads every remote under its CSP with no violation reported', async () => {
    const violations: string[] = [];
    await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) =>
        (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation(
          `${event.violatedDirective} blocked ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`,
        ),
      );
    });
    await signIn(page, DEMO.superAdmin);
    const pages: [string, string][] = [
      ['/Dashboard', 'Dashboard'],
      ['/ListDevices', 'Device Pick List'],
      ['/createuser', 'Create User'],
      ['/Upload', 'Upload CSV File'],
      ['/Download', 'Download Data'],
      ['/Deactivateuser', 'Deactivate Users'],
      ['/WhiteLabel', 'White Labeled Brands'],
      ['/AuditLog', 'Audit Log'],
    ];
    for (const [route, heading] of pages) {
      await page.goto(route);
      await page.getByRole('heading', { name: heading }).first().waitFor();
      await page.waitForLoadState('networkidle');
    }
    // The error card of a remote that failed to load would say so.
    expect(await page.getByText(/could not be loaded/i).count()).toBe(0);
    expect(violations).toEqual([]);
  });

  test('a page on another origin cannot frame the console', async () => {
    const consoleUrl = new URL('/login', baseUrl()).toString();
    const other = http.createServer((request, response) => {
      response.setHeader('content-type', 'text/html');
      if (request.url === '/framable') return response.end('<p>framable page</p>');
      response.end(`<iframe id="console" src="${consoleUrl}"></iframe><iframe id="control" src="/framable"></iframe>`);
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      await page.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
      // The control frame shows that a framable page does render here.
      await page.frameLocator('#control').getByText('framable page').waitFor();
      const consoleFrame = page
        .frames()
        .find((frame) => frame.name() === '' && frame !== page.mainFrame() && !frame.url().endsWith('/framable'));
      expect(consoleFrame).toBeDefined();
      expect(consoleFrame!.url()).not.toBe(consoleUrl);
      expect(await page.frameLocator('#console').getByLabel('Username').count()).toBe(0);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  test("with the access cookie gone, 100 calls through the console's own client cost exactly 1 refresh and all succeed", async () => {
    await signIn(page, DEMO.admin);
    await context.clearCookies({ name: 'veritas_access' });
    const refreshes: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/veritas/user/refresh/') refreshes.push(request.url());
    });

    const statuses = await consoleHttp(page, (client) =>
      Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          client.get(i % 2 ? 'user/get_role/' : 'user/is_LoggedIn/').then(
            (answer) => answer.status,
            (error: { response?: { status: number } }) => error.response?.status ?? 0,
          ),
        ),
      ),
    );

    expect(statuses).toEqual(Array(100).fill(200));
    expect(refreshes).toHaveLength(1);
  });

  test("an origin the super_admin allows is in the next page's CSP, and gone from it once removed", async () => {
    const origin = 'https://cdn.example.test';
    /** The page's script-src and connect-src once they read `expected`: the list is cached 5 s (docs/sessions.md). */
    const scriptsAndFetches = async (expected: string[]) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const { headers } = await headersOf(new URL('/login', baseUrl()).toString());
        const csp = directives(headers['content-security-policy']);
        const read = [csp.get('script-src'), csp.get('connect-src')];
        if (JSON.stringify(read) === JSON.stringify([expected, expected]) || Date.now() > deadline) return read;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    await signIn(page, DEMO.superAdmin);
    // Each call runs in the page: its text, not a closure, reaches the browser.
    const added = await consoleHttp(page, (client) =>
      client.post('registry/origins/', { origin: 'https://cdn.example.test' }).then((answer) => answer.status),
    );
    expect(added).toBe(201);
    try {
      const allowed = ["'self'", origin];
      expect(await scriptsAndFetches(allowed)).toEqual([allowed, allowed]);
    } finally {
      const removed = await consoleHttp(page, (client) =>
        client.post('registry/origins/remove/', { origin: 'https://cdn.example.test' }).then((answer) => answer.status),
      );
      expect(removed).toBe(200);
    }
    expect(await scriptsAndFetches(["'self'"])).toEqual([["'self'"], ["'self'"]]);
  });
});
