import type { ReactNode } from 'react';
import { createQueryClient, QueryProvider, type QueryClient } from '../query';

/**
 * A `wrapper` for render and renderHook: the page gets a query client of its own with the console's
 * defaults, as the shell's signed-in layout gives it the console's one, so no test sees another's cache.
 */
export function withQueryClient(client: QueryClient = createQueryClient()) {
  return function QueryClientWrapper({ children }: { children: ReactNode }) {
    return <QueryProvider client={client}>{children}</QueryProvider>;
  };
}

/**
 * Whether `client` still keeps `text` (a secret, a password) in any change it made: its
 * variables, answer or error. A change that handed a secret over must keep no copy of it.
 */
export function mutationsKeep(client: QueryClient, text: string): boolean {
  return client
    .getMutationCache()
    .getAll()
    .some((mutation) => JSON.stringify(mutation.state).includes(text));
}
