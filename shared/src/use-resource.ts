// The one way a page loads what it shows: a call with its loading state, error and reload
// (docs/architecture.md#loading-data).
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Resource<T> {
  /** The latest answer; undefined until one arrives. A failed reload keeps the answer before it. */
  data: T | undefined;
  /** Why the latest call failed; undefined once a later one succeeds. */
  error: unknown;
  /** No answer yet for this key. A reload keeps the answer shown until its own arrives. */
  loading: boolean;
  /**
   * Calls again. Resolves with the answer once it is the data shown; with undefined when the call failed
   * (after `onError`), was overtaken by a newer one, or the page was left meanwhile.
   */
  reload(): Promise<T | undefined>;
  /** Changes the data shown, e.g. by what the page itself has just created. */
  setData(update: (current: T | undefined) => T): void;
}

export interface ResourceOptions {
  /** Called with each failure of the latest call, as it is shown in `error` (never after the page was left). */
  onError?(error: unknown): void;
}

/**
 * First calls not answered yet, by key. A page starts its call with its first render rather than
 * in an effect: React holds a just-loaded lazy page back before committing it, and the page's call
 * should not wait for that. React may render a page more than once before it commits one
 * (StrictMode, a render it discards): those renders share this one call.
 */
const firstCalls = new Map<string, Promise<unknown>>();

function firstCall<T>(key: string, load: (key: string) => Promise<T>): Promise<T> {
  const pending = firstCalls.get(key) as Promise<T> | undefined;
  if (pending) return pending;
  const call = load(key);
  firstCalls.set(key, call);
  const forget = () => {
    if (firstCalls.get(key) === call) firstCalls.delete(key);
  };
  call.then(forget, forget);
  return call;
}

/** What reload resolves with: the answer once shown, or undefined. */
function deferred<T>() {
  let settle!: (shown: T | undefined) => void;
  const shown = new Promise<T | undefined>((resolve) => (settle = resolve));
  return { shown, settle };
}

interface State<T> {
  key: string;
  /** The call started by the render that asked for this key. */
  first: Promise<T>;
  data: T | undefined;
  error: unknown;
  loading: boolean;
}

function begin<T>(key: string, load: (key: string) => Promise<T>): State<T> {
  return { key, first: firstCall(key, load), data: undefined, error: undefined, loading: true };
}

/**
 * Loads `load(key)` for a page, starting with its first render, and shows the latest answer.
 * `key` names what is loaded (usually the call's path): calls with the same key must be
 * interchangeable. When it changes, the new key is loaded and the old answer dropped.
 */
export function useResource<T>(
  key: string,
  load: (key: string) => Promise<T>,
  { onError }: ResourceOptions = {},
): Resource<T> {
  const [state, setState] = useState(() => begin(key, load));
  let shown = state;
  if (state.key !== key) {
    shown = begin(key, load);
    setState(shown);
  }

  // What the latest committed render passed, for reload and for answers that arrive later.
  const latest = useRef({ key, load, onError });
  useEffect(() => {
    latest.current = { key, load, onError };
  });

  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // The latest call: only its answer is shown, and only while the page is.
  const current = useRef<ReturnType<typeof deferred<T>> | null>(null);
  const follow = useCallback((key: string, answer: Promise<T>) => {
    current.current?.settle(undefined);
    const call = deferred<T>();
    current.current = call;
    const showing = () => current.current === call && mounted.current && latest.current.key === key;
    answer.then(
      (data) => {
        if (!showing()) return call.settle(undefined);
        setState((s) => (s.key === key ? { ...s, data, error: undefined, loading: false } : s));
        call.settle(data);
      },
      (error: unknown) => {
        if (!showing()) return call.settle(undefined);
        setState((s) => (s.key === key ? { ...s, error, loading: false } : s));
        latest.current.onError?.(error);
        call.settle(undefined);
      },
    );
    return call.shown;
  }, []);

  // Once per key: an effect run again (a page hidden by <Activity> and shown again) must not show
  // the first answer over a newer one.
  const followed = useRef<Promise<T> | null>(null);
  useEffect(() => {
    if (followed.current === shown.first) return;
    followed.current = shown.first;
    void follow(shown.key, shown.first);
  }, [shown.key, shown.first, follow]);

  const reload = useCallback(() => {
    if (!mounted.current) return Promise.resolve(undefined);
    const { key, load } = latest.current;
    return follow(key, load(key));
  }, [follow]);

  const setData = useCallback(
    (update: (data: T | undefined) => T) => setState((s) => ({ ...s, data: update(s.data) })),
    [],
  );

  return { data: shown.data, error: shown.error, loading: shown.loading, reload, setData };
}
