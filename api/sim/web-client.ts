// A client of the /veritas web API as the console is one: a cookie jar, the XSRF header echoed on
// every POST, JSON and multipart bodies, and the chunked upload. Used by the simulator, the
// benchmarks and the API tests.
import crypto from 'node:crypto';
import { API_PREFIX, XSRF_COOKIE, XSRF_HEADER } from '@veritas/shared/domain';
import { fetchHonouringRetryAfter as fetchRetrying } from '@veritas/shared/retry-after';
import { Agent } from 'undici';

interface StoredCookie {
  value: string;
  path: string;
  attributes: string;
}

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
  /** Raw Set-Cookie lines of this answer. */
  setCookies: string[];
}

export interface WebClientOptions {
  /**
   * The local address the client's connections come from, e.g. 127.0.0.2 (on Linux every
   * 127.x.x.x is the loopback), so tests can sign in from several client addresses.
   */
  localAddress?: string;
}

/** A call answered 503 with Retry-After is repeated at most this many times, waiting as told. */
const RETRY_AFTER_BUDGET = { repeats: 4 };

/**
 * fetch, honouring a 503 with Retry-After (docs/errors.md#database-unavailable): a GET is
 * repeated; a write only when the body's `outcome` says it was not applied, since a write whose
 * outcome is unknown may have been applied, unless `idempotent` says that applying it twice is
 * harmless (a field scan: the engine refuses what was already done).
 */
export function fetchHonouringRetryAfter(
  url: string,
  init: RequestInit & { dispatcher?: Agent },
  { idempotent = false } = {},
): Promise<Response> {
  return fetchRetrying(url, init, { budget: RETRY_AFTER_BUDGET, idempotent });
}

export class WebClient {
  readonly cookies = new Map<string, StoredCookie>();
  private readonly dispatcher: Agent | undefined;

  constructor(
    private readonly baseUrl: string,
    { localAddress }: WebClientOptions = {},
  ) {
    this.dispatcher = localAddress === undefined ? undefined : new Agent({ localAddress });
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }

  /** The Cookie header of the jar: its cookies whose path `urlPath` is under, or all of them. */
  cookieHeader(urlPath?: string): string {
    return [...this.cookies]
      .filter(([, c]) => urlPath === undefined || urlPath.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  async request<T = any>(
    method: string,
    apiPath: string,
    { body, xsrf, headers = {} }: { body?: unknown; xsrf?: string | false; headers?: Record<string, string> } = {},
  ): Promise<Answer<T>> {
    // FormData bodies go as they are: fetch sets the multipart content type with its boundary.
    const json = body !== undefined && !(body instanceof FormData);
    const urlPath = `${API_PREFIX}/${apiPath}`;
    const cookieHeader = this.cookieHeader(urlPath);
    const token = xsrf === undefined ? this.cookie(XSRF_COOKIE) : xsrf;
    const response = await fetchHonouringRetryAfter(this.baseUrl + urlPath, {
      method,
      headers: {
        ...(cookieHeader ? { cookie: cookieHeader } : {}),
        ...(json ? { 'content-type': 'application/json' } : {}),
        // Lower-case, as a caller's `headers` that replace it are written.
        ...(method !== 'GET' && token ? { [XSRF_HEADER.toLowerCase()]: token } : {}),
        ...headers,
      },
      body: json ? JSON.stringify(body) : (body as FormData | undefined),
      dispatcher: this.dispatcher,
    });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) this.store(line);
    const raw = await response.text();
    let parsed: unknown = raw;
    try {
      parsed = raw ? JSON.parse(raw) : null;
    } catch {
      // Not JSON: keep the text.
    }
    return { status: response.status, body: parsed as T, headers: response.headers, setCookies };
  }

  get<T = any>(apiPath: string, options?: { headers?: Record<string, string> }) {
    return this.request<T>('GET', apiPath, options);
  }

  post<T = any>(apiPath: string, body: unknown = {}, options: { xsrf?: string | false } = {}) {
    return this.request<T>('POST', apiPath, { body, ...options });
  }

  /** A multipart POST like the console's upload: the fields first, then the file part. */
  postMultipart<T = any>(
    apiPath: string,
    fields: Record<string, string | number>,
    file: { name: string; content: string | Uint8Array },
    options: { xsrf?: string | false } = {},
  ) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
    form.append('file', new Blob([file.content], { type: 'text/csv' }), file.name);
    return this.request<T>('POST', apiPath, { body: form, ...options });
  }

  /** Like the console: a GET first to receive the XSRF cookie, then the login call. */
  async login(username: string, password: string): Promise<Answer> {
    if (!this.cookie(XSRF_COOKIE)) await this.get('user/is_LoggedIn/');
    return this.post('user/login/', { username, password });
  }

  private store(line: string) {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const attr = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.split('=')[1];
    const expires = attr('expires');
    const expired = attr('max-age') === '0' || (expires !== undefined && Date.parse(expires) <= Date.now());
    if (expired || value === '') this.cookies.delete(name);
    else this.cookies.set(name, { value, path: attr('path') ?? '/', attributes: attributes.join('; ') });
  }
}

/**
 * Sends a file to api/upload/ as the console does: chunks of chunkSize bytes, one call each, in
 * order, under a fresh upload_id; stops at the first refused chunk. The last answer is the result.
 */
export async function uploadCsv(
  client: WebClient,
  fileName: string,
  content: string | Buffer,
  chunkSize = 1_048_576,
): Promise<Answer[]> {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const totalChunks = Math.max(1, Math.ceil(bytes.length / chunkSize));
  const uploadId = crypto.randomUUID();
  const answers: Answer[] = [];
  for (let index = 0; index < totalChunks; index++) {
    const chunk = bytes.subarray(index * chunkSize, (index + 1) * chunkSize);
    const answer = await client.postMultipart(
      'api/upload/',
      { upload_id: uploadId, chunk_index: index, total_chunks: totalChunks },
      { name: fileName, content: chunk },
    );
    answers.push(answer);
    if (answer.status >= 400) break;
  }
  return answers;
}
