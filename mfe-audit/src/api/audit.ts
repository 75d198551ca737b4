// The audit trail's calls (docs/screens.md#audit-log): its pages newest first with a cursor, the
// address of its CSV export, and a live entry put into the pages already loaded.
import { http, type AuditEntry, type AuditFilterQuery, type AuditPage } from '@veritas/shared';
import { infiniteQueryOptions, type QueryClient } from '@veritas/shared/query';
import { matchesFilter } from '../audit-filter';

export const AUDIT_PATH = 'audit/';
const EXPORT_PATH = 'audit/export/';
/** Entries asked for a page. */
export const AUDIT_PAGE_SIZE = 50;
/** Every query of the trail's pages starts with it. */
export const AUDIT_KEY = [AUDIT_PATH] as const;

/** GET audit/?<filters>&before=&limit=: the page of entries older than `before` (null: the newest). */
export async function fetchAuditPage(
  query: AuditFilterQuery,
  before: string | null,
  signal?: AbortSignal,
): Promise<AuditPage> {
  const params = { ...query, ...(before === null ? {} : { before }), limit: AUDIT_PAGE_SIZE };
  const { data } = await http.get<AuditPage>(AUDIT_PATH, { params, signal });
  if (!data || !Array.isArray(data.entries)) throw new Error(`${AUDIT_PATH} did not answer a page of entries`);
  return { entries: data.entries, next: typeof data.next === 'string' && data.next ? data.next : null };
}

/** The pages of `query`, newest first, each read after the previous one's `next`. */
export function auditPagesQuery(query: AuditFilterQuery) {
  return infiniteQueryOptions({
    queryKey: [...AUDIT_KEY, query] as const,
    queryFn: ({ pageParam, signal }) => fetchAuditPage(query, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: AuditPage) => last.next,
  });
}

/** The address of audit/export/ with `query`: the CSV of every entry it matches, as a download. */
export function exportHref(query: AuditFilterQuery): string {
  return http.getUri({ url: EXPORT_PATH, params: query });
}

/**
 * Puts a live entry into the loaded pages of `query` when it matches them and is not there yet
 * (by seq): at its place in the first page (a new entry: its top). Answers whether it was put in.
 * Before the first page arrived there is nothing to change: that page is read after the entry.
 */
export function addLiveEntry(client: QueryClient, query: AuditFilterQuery, entry: AuditEntry): boolean {
  if (!matchesFilter(entry, query)) return false;
  let added = false;
  client.setQueryData(auditPagesQuery(query).queryKey, (data) => {
    const first = data?.pages[0];
    if (!data || !first) return data;
    if (data.pages.some((page) => page.entries.some((e) => e.seq === entry.seq))) return data;
    // Older than the first page while more follow: its place is in a page not loaded, or further down.
    const oldest = first.entries[first.entries.length - 1];
    if (first.next !== null && oldest && entry.seq < oldest.seq) return data;
    added = true;
    const entries = [...first.entries, entry].sort((a, b) => b.seq - a.seq);
    return { ...data, pages: [{ ...first, entries }, ...data.pages.slice(1)] };
  });
  return added;
}
