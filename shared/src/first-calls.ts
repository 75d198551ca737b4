// Entry point @veritas/shared/first-calls (docs/architecture.md#first-rows): the GETs a page
// declares (`firstCalls` of its remote.json) start with its code, and the page's own call takes
// the answer when it asks for that very request. What the calls mean is the remote's alone.
// The package's own entry, not its file: @veritas/shared is a Module Federation singleton, and a
// relative import would bundle a second copy of the HTTP client.
import { http, type FirstCall, type ServerFeature } from '@veritas/shared';
// A pure function, without state: a copy of it in a bundle is harmless.
import { acceptPattern } from './accept-pattern';
import type { AxiosResponse } from 'axios';

/** How long a first call not taken yet may still be: older, the page asks again. */
export const FIRST_CALL_KEPT_MS = 30_000;

interface Started {
  answer: Promise<AxiosResponse>;
  at: number;
}

// The shell and each remote bundle their own copy of this entry: the calls live on the global
// object, under one key, so that the remote takes what the shell started.
const startedKey = Symbol.for('veritas.firstCalls');
const registry = globalThis as typeof globalThis & { [startedKey]?: Map<string, Started> };
const started = (registry[startedKey] ??= new Map());

/** One request as compared: the path and its parameters in name order (their order asks nothing else). */
function requestKey(path: string, params: Readonly<Record<string, string>>): string {
  const query = new URLSearchParams(Object.entries(params));
  query.sort();
  return `${path}?${query}`;
}

/** Whether `call` sends the URL's `value` of `name`: any value, unless its `accept` has a pattern for it. */
function accepts(call: FirstCall, name: string, value: string): boolean {
  const pattern = call.accept?.[name];
  // A pattern that is none (the registry refuses it at publish) accepts nothing.
  return pattern === undefined || (acceptPattern(pattern)?.test(value) ?? false);
}

/**
 * Starts the first calls of a page being entered, for the query `search` of its URL, those whose
 * feature the server offers, each with the URL's values it accepts; those of the page entered
 * before that were not taken are dropped.
 */
export function startFirstCalls(calls: readonly FirstCall[], search: string, features: readonly ServerFeature[]): void {
  started.clear();
  const url = new URLSearchParams(search);
  for (const call of calls) {
    if (call.feature !== undefined && !(features as readonly string[]).includes(call.feature)) continue;
    const params: Record<string, string> = {};
    for (const name of call.forward ?? []) {
      const value = url.get(name);
      if (value && accepts(call, name, value)) params[name] = value;
    }
    Object.assign(params, call.params);
    const answer = http.get(call.path, { params });
    // A call nobody takes must not report an unhandled failure; the one who takes it sees it.
    answer.catch(() => {});
    started.set(requestKey(call.path, params), { answer, at: Date.now() });
  }
}

/**
 * The answer of the first call for GET `path` with exactly `params`, if one was started and not
 * taken yet: once only, so any later call asks the server. Undefined otherwise: the caller asks itself.
 */
export function takeFirstCall<T>(
  path: string,
  params: Readonly<Record<string, string>>,
): Promise<AxiosResponse<T>> | undefined {
  const key = requestKey(path, params);
  const call = started.get(key);
  started.delete(key);
  if (!call || Date.now() - call.at > FIRST_CALL_KEPT_MS) return undefined;
  return call.answer as Promise<AxiosResponse<T>>;
}
