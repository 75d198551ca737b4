// Search as the user types (debounced 300 ms, docs/screens.md#white-labeled-brands): one request once typing pauses, and only
// the answer to the latest text counts, so an earlier request answering late never overwrites
// a newer one.
import { useCallback, useEffect, useRef, useState } from 'react';

export const SEARCH_DEBOUNCE_MS = 300;

export interface DebouncedSearch<T> {
  results: T[];
  /** From the call to `search` until the answer to the latest text. */
  loading: boolean;
  search: (text: string) => void;
}

/**
 * `find` and `onError` should be stable (module functions or useCallback): `search` changes with them.
 * A failed search empties the results and calls `onError`.
 */
export function useDebouncedSearch<T>(
  find: (text: string) => Promise<T[]>,
  onError: (error: unknown) => void,
  delayMs = SEARCH_DEBOUNCE_MS,
): DebouncedSearch<T> {
  const [results, setResults] = useState<T[]>([]);
  const [loading, setLoading] = useState(false);
  // Number of the latest search; answers carrying an older number are dropped.
  const latest = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      latest.current++;
    },
    [],
  );

  const search = useCallback(
    (text: string) => {
      const ticket = ++latest.current;
      clearTimeout(timer.current);
      setLoading(true);
      timer.current = setTimeout(() => {
        find(text).then(
          (found) => {
            if (ticket !== latest.current) return;
            setResults(found);
            setLoading(false);
          },
          (error: unknown) => {
            if (ticket !== latest.current) return;
            setResults([]);
            setLoading(false);
            onError(error);
          },
        );
      }, delayMs);
    },
    [find, onError, delayMs],
  );

  return { results, loading, search };
}
