// The cases' calls (api/cases/, docs/cases.md): the queue's pages with a cursor and its count,
// a case and its changes, notes and photos, saved views, bulk jobs, due times, the export's
// address. Components import from here and never call `http` themselves.
import {
  http,
  type CaseAssignees,
  type CaseCount,
  type CaseDetail,
  type CaseDueTimes,
  type CaseEvent,
  type CaseFilters,
  type CaseJob,
  type CaseList,
  type CasePage,
  type CasePhoto,
  type CaseSummary,
  type CaseTotals,
  type CaseView,
  type CaseViewList,
  type NewCaseJob,
  type NewCaseView,
} from '@veritas/shared';
import { infiniteQueryOptions, queryOptions } from '@veritas/shared/query';

export const CASES_PATH = 'api/cases/';
/** Every query of cases starts with it: a live `cases` event invalidates them all. */
export const CASES_KEY = [CASES_PATH] as const;
/** Cases asked for a page. */
export const CASE_PAGE_SIZE = 50;

/** The filters without the empty ones, as the URL and the calls carry them. */
export function compactFilters(filters: CaseFilters): CaseFilters {
  return Object.fromEntries(
    Object.entries(filters).filter(([, value]) => value !== undefined && value !== ''),
  ) as CaseFilters;
}

export async function fetchCasePage(
  filters: CaseFilters,
  after: string | null,
  signal?: AbortSignal,
): Promise<CasePage> {
  const params = { ...compactFilters(filters), ...(after === null ? {} : { after }), limit: CASE_PAGE_SIZE };
  const { data } = await http.get<CasePage>(CASES_PATH, { params, signal });
  if (!data || !Array.isArray(data.cases)) throw new Error(`${CASES_PATH} did not answer a page of cases`);
  return { cases: data.cases, next: typeof data.next === 'string' && data.next ? data.next : null };
}

/** The queue's pages by due time, each read after the previous one's `next`. */
export function casePagesQuery(filters: CaseFilters) {
  return infiniteQueryOptions({
    queryKey: [...CASES_KEY, 'pages', compactFilters(filters)] as const,
    queryFn: ({ pageParam, signal }) => fetchCasePage(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: CasePage) => last.next,
  });
}

export function caseCountQuery(filters: CaseFilters) {
  return queryOptions({
    queryKey: [...CASES_KEY, 'count', compactFilters(filters)] as const,
    queryFn: async ({ signal }) =>
      (await http.get<CaseCount>(`${CASES_PATH}count/`, { params: compactFilters(filters), signal })).data,
  });
}

/** Open and overdue cases: of a hub (`hub`: a code or 'all'), or the signed-in user's (`mine`). */
export function caseTotalsQuery(scope: { hub?: string; mine?: boolean }) {
  const params = { ...(scope.hub ? { hub: scope.hub } : {}), ...(scope.mine ? { mine: '1' } : {}) };
  return queryOptions({
    queryKey: [...CASES_KEY, 'summary', params] as const,
    queryFn: async ({ signal }) => (await http.get<CaseTotals>(`${CASES_PATH}summary/`, { params, signal })).data,
  });
}

/** The cases of one tracking ID, newest first. */
export function casesOfQuery(trackingId: string) {
  return queryOptions({
    queryKey: [...CASES_KEY, 'of', trackingId] as const,
    queryFn: async ({ signal }) =>
      (await http.get<CaseList>(`${CASES_PATH}of/`, { params: { tracking_id: trackingId }, signal })).data.cases,
  });
}

export function caseQuery(id: number) {
  return queryOptions({
    queryKey: [...CASES_KEY, 'case', id] as const,
    queryFn: async ({ signal }) => (await http.get<CaseDetail>(`${CASES_PATH}${id}/`, { signal })).data,
  });
}

/** Who may be given the cases of `queue`: a group code, or several separated by commas (who may work every one). */
export function assigneesQuery(queue: string) {
  return queryOptions({
    queryKey: [...CASES_KEY, 'assignees', queue] as const,
    queryFn: async ({ signal }) =>
      (await http.get<CaseAssignees>(`${CASES_PATH}assignees/`, { params: { queue }, signal })).data.users,
  });
}

/** A change of a case, made on its `version`: a 409 answers the case as it now is (`conflictCase`). */
export type CaseChange =
  | { action: 'assign'; assignee: string | null }
  | { action: 'review' }
  | { action: 'resolve'; disposition: string; note: string }
  | { action: 'reopen'; reason: string };

export async function changeCase(summary: CaseSummary, change: CaseChange): Promise<CaseSummary> {
  const { action, ...body } = change;
  const { data } = await http.post<CaseSummary>(`${CASES_PATH}${summary.id}/${action}/`, {
    ...body,
    version: summary.version,
  });
  return data;
}

/** The case a 409 answered with (someone changed it first), if the error is one. */
export function conflictCase(error: unknown): CaseSummary | null {
  const response = (error as { response?: { status?: number; data?: { case?: CaseSummary } } }).response;
  return response?.status === 409 && response.data?.case ? response.data.case : null;
}

export async function addNote(id: number, note: string): Promise<CaseEvent> {
  return (await http.post<CaseEvent>(`${CASES_PATH}${id}/notes/`, { note })).data;
}

/** Sends a photo's bytes as they are; the server recognises the type by them. */
export async function addPhoto(id: number, file: Blob): Promise<CasePhoto> {
  const { data } = await http.post<CasePhoto>(`${CASES_PATH}${id}/photos/`, file, {
    headers: { 'Content-Type': file.type || 'application/octet-stream' },
  });
  return data;
}

/** A photo's address for an <img>: under the console's HTTP client's /veritas/. */
export const photoSrc = (photo: CasePhoto) => http.getUri({ url: photo.url });

export const viewsQuery = queryOptions({
  queryKey: [...CASES_KEY, 'views'] as const,
  queryFn: async ({ signal }) => (await http.get<CaseViewList>(`${CASES_PATH}views/`, { signal })).data.views,
});

export async function saveView(view: NewCaseView): Promise<CaseView> {
  return (await http.post<CaseView>(`${CASES_PATH}views/`, view)).data;
}

export async function deleteView(id: number): Promise<void> {
  await http.post(`${CASES_PATH}views/${id}/delete/`, {});
}

export async function startJob(job: NewCaseJob): Promise<CaseJob> {
  return (await http.post<CaseJob>(`${CASES_PATH}jobs/`, job)).data;
}

/** A job's progress, read again every second while it runs. */
export function jobQuery(id: number) {
  return queryOptions({
    queryKey: [...CASES_KEY, 'job', id] as const,
    queryFn: async ({ signal }) => (await http.get<CaseJob>(`${CASES_PATH}jobs/${id}/`, { signal })).data,
    refetchInterval: (query) => (query.state.data?.state === 'done' ? false : 1000),
  });
}

export const dueTimesQuery = queryOptions({
  queryKey: [...CASES_KEY, 'due-times'] as const,
  queryFn: async ({ signal }) => (await http.get<CaseDueTimes>(`${CASES_PATH}due_times/`, { signal })).data.due_hours,
});

export async function saveDueTimes(dueHours: Record<string, number>): Promise<Record<string, number>> {
  return (await http.post<CaseDueTimes>(`${CASES_PATH}due_times/`, { due_hours: dueHours })).data.due_hours;
}

/** The address of api/cases/export/ with the filters: the CSV of every case they match, as a download. */
export function exportHref(filters: CaseFilters): string {
  return http.getUri({ url: `${CASES_PATH}export/`, params: compactFilters(filters) });
}
