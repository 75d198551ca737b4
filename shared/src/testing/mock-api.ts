// Test support for the shell and every remote: answers calls of the shared `http` client at its
// adapter, so interceptors, the session store and components run for real in unit tests.
import { AxiosError, type AxiosAdapter, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { http } from '../http';

export type MockReply = [status: number, body?: unknown, headers?: Record<string, string>];
export type MockHandler = MockReply | ((request: RecordedRequest) => MockReply | Promise<MockReply>);

export interface RecordedRequest {
  method: string;
  /** The path under /veritas without a leading slash, e.g. 'user/get_role/'. */
  url: string;
  body: unknown;
  config: InternalAxiosRequestConfig;
}

export interface MockApi {
  /** Answer `METHOD path` (e.g. 'GET user/get_role/') with a fixed reply or a function of the request. */
  on(route: string, handler: MockHandler): MockApi;
  /** Every request made so far, in order. */
  readonly requests: RecordedRequest[];
  /** The requests made to `METHOD path`. */
  requestsTo(route: string): RecordedRequest[];
  /** Put the real adapter back. */
  restore(): void;
}

const routeKey = (method: string, url: string) => `${method.toUpperCase()} ${url.replace(/^\//, '')}`;

function parseBody(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/** Replace the adapter of `http`; unmatched calls answer 404 so a missing mock shows in `requests`. */
export function mockApi(): MockApi {
  const handlers = new Map<string, MockHandler>();
  const requests: RecordedRequest[] = [];
  const realAdapter = http.defaults.adapter;

  const adapter: AxiosAdapter = async (config) => {
    const request: RecordedRequest = {
      method: (config.method ?? 'get').toUpperCase(),
      url: (config.url ?? '').replace(/^\//, ''),
      body: parseBody(config.data),
      config,
    };
    requests.push(request);
    const handler = handlers.get(routeKey(request.method, request.url)) ?? [
      404,
      { detail: `No mock for ${request.method} ${request.url}` },
    ];
    const [status, body, headers = {}] = typeof handler === 'function' ? await handler(request) : handler;
    const response: AxiosResponse = {
      status,
      statusText: String(status),
      data: body,
      headers,
      config,
      request: {},
    };
    if (status >= 200 && status < 300) return response;
    throw new AxiosError(
      `Request failed with status code ${status}`,
      status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST,
      config,
      {},
      response,
    );
  };
  http.defaults.adapter = adapter;

  const api: MockApi = {
    on(route, handler) {
      const [method = 'GET', url = ''] = route.split(' ');
      handlers.set(routeKey(method, url), handler);
      return api;
    },
    requests,
    requestsTo: (route) => {
      const [method = 'GET', url = ''] = route.split(' ');
      return requests.filter((r) => routeKey(r.method, r.url) === routeKey(method, url));
    },
    restore() {
      http.defaults.adapter = realAdapter;
    },
  };
  return api;
}
