// Search as the user types (debounced 300 ms, docs/screens.md#white-labeled-brands): one request
// once typing pauses. Each text sent is a query of its own, so only the answer to the latest one
// shows: an earlier request answering late never overwrites a newer one.
import { keepPreviousData, useQuery, type QueryKey } from '@veritas/shared/query';
import { useEffect, useEffectEvent, useState } from 'react';

export const SEARCH_DEBOUNCE_MS = 300;

// One empty list, so that results without an answer keep their identity from render to render.
const NO_RESULTS: never[] = [];

/** The search of one text: its query key and its call. */
export interface SearchQuery<T> {
  queryKey: QueryKey;
  queryFn: () => Promise<T[]>;
}

export interface DebouncedSearch<T> {
  results: T[];
  /** From the call to `search` until the answer to the latest text. */
  loading: boolean;
  search: (text: string) => void;
}

/** `value` once it has stayed the same for `delayMs`. */
function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/** Nothing is sent before the first `search`. A failed search empties the results and calls `onError`. */
export function useDebouncedSearch<T>(
  queryOf: (text: string) => SearchQuery<T>,
  onError: (error: unknown) => void,
  delayMs = SEARCH_DEBOUNCE_MS,
): DebouncedSearch<T> {
  const [text, setText] = useState<string | null>(null);
  const sent = useDebounced(text, delayMs);
  const typing = text !== sent;
  const { data, error, isFetching } = useQuery({
    ...queryOf(sent ?? ''),
    enabled: sent !== null,
    // The previous text's results stay until the next text's answer replaces them.
    placeholderData: keepPreviousData,
  });

  // A failure of a text already typed over is not reported: the newer text is to be sent.
  const report = useEffectEvent((failure: unknown) => {
    if (!typing) onError(failure);
  });
  useEffect(() => {
    if (error) report(error);
  }, [error]);

  return { results: data ?? NO_RESULTS, loading: typing || isFetching, search: setText };
}
