// api/cases/ (src/cases/, docs/cases.md): the queue, a case and its changes, notes, due times,
// saved views and bulk jobs. Who may do what is docs/screens.md#cases-rights, enforced here and in
// the feature's rules whatever the console shows.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  type AuditAction,
  CaseAssign,
  CaseAssignees,
  CaseAssigneesQuery,
  CaseConflict,
  CaseCount,
  CaseDetail,
  CaseDueTimes,
  CaseEvent,
  CaseFilters,
  CaseIdParams,
  CaseJobIdParams,
  CaseViewIdParams,
  CaseJob,
  CaseList,
  CaseNote,
  CasePage,
  CasePageQuery,
  CaseReopen,
  CaseResolve,
  CasesOfQuery,
  CaseSummary,
  CaseSummaryQuery,
  CaseTotals,
  CaseVersion,
  CaseView,
  CaseViewList,
  MessageAnswer,
  NewCaseJob,
  NewCaseView,
  NoQuery,
  MAX_CASE_VIEW_NAME_LENGTH,
  canReadCases,
  canRunCaseJobs,
  canSetCaseDueTimes,
} from '@veritas/shared/domain';
import { auditByOf } from '../audit/actor';
import { targetOfBodyField, targetOfPathParam } from '../audit/refusals';
import { requireRole } from '../plugins/authentication';
import { sendStream, pagedBody } from '../streamed-body';
import { caseInPath, viewLabel } from './audit-targets';
import { addCaseNote, assignCase, caseDetail, reopenCase, resolveCase, startReview, type UserCaseActor } from './cases';
import { caseJob, createCaseJob, type CaseJobRunner } from './jobs';
import { caseAssignees, caseCount, casePage, casesCsv, casesOfTracking, caseTotals } from './queue';
import { caseViews, deleteView, dueTimes, saveCaseView, setDueTimes } from './settings';

const tags = ['cases'];

const actorOf = (request: FastifyRequest): UserCaseActor => {
  const { id, username, role, groupCode } = request.user;
  return { id, username, role, groupCode, by: auditByOf(request) };
};

const audited = (action: AuditAction) => ({ audit: { action } });
/** The audit config of an action on the case its path names: a refusal's entry names the case. */
const onCase = (action: AuditAction) => ({
  audit: { action, target: caseInPath },
});

export const caseRoutes: FastifyPluginAsyncTypebox<{ jobs: CaseJobRunner | null }> = async (app, { jobs }) => {
  const { db } = app;
  app.addHook('preValidation', requireRole(canReadCases, 'Your role cannot open cases.'));

  app.get(
    '/api/cases/',
    {
      schema: {
        tags,
        summary: 'A page of the queue, by due time',
        querystring: CasePageQuery,
        response: { 200: CasePage },
      },
    },
    async (request) => casePage(db, request.user, request.query),
  );

  app.get(
    '/api/cases/count/',
    {
      schema: {
        tags,
        summary: 'How many cases the filters match',
        querystring: CaseFilters,
        response: { 200: CaseCount },
      },
    },
    async (request) => caseCount(db, request.user, request.query),
  );

  app.get(
    '/api/cases/export/',
    {
      schema: {
        tags,
        summary: 'The cases the filters match, by due time, as a CSV file',
        querystring: CaseFilters,
        response: { 200: { description: 'The cases', content: { 'text/csv': { schema: { type: 'string' } } } } },
      },
    },
    async (request, reply) => {
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="cases.csv"')
        .header('cache-control', 'no-store');
      return sendStream(reply, pagedBody(casesCsv(db, request.user, request.query)));
    },
  );

  app.get(
    '/api/cases/summary/',
    {
      schema: {
        tags,
        summary: 'Open and overdue cases: of a hub, or the signed-in user’s',
        querystring: CaseSummaryQuery,
        response: { 200: CaseTotals },
      },
    },
    async (request) => caseTotals(db, request.user, request.query),
  );

  app.get(
    '/api/cases/of/',
    { schema: { tags, summary: 'The cases of a tracking ID', querystring: CasesOfQuery, response: { 200: CaseList } } },
    async (request) => ({ cases: await casesOfTracking(db, request.user, request.query.tracking_id) }),
  );

  app.get(
    '/api/cases/assignees/',
    {
      schema: {
        tags,
        summary: 'The users the cases of a queue, or of each of several, may be assigned to',
        querystring: CaseAssigneesQuery,
        response: { 200: CaseAssignees },
      },
    },
    async (request) => ({ users: await caseAssignees(db, request.user, request.query.queue) }),
  );

  app.get(
    '/api/cases/:id/',
    {
      schema: {
        tags,
        summary: 'A case: its scan, device record, timeline and photos',
        params: CaseIdParams,
        querystring: NoQuery,
        response: { 200: CaseDetail },
      },
    },
    async (request) => caseDetail(db, request.user, Number(request.params.id)),
  );

  const change = <B extends typeof CaseAssign | typeof CaseVersion | typeof CaseResolve | typeof CaseReopen>(
    summary: string,
    body: B,
  ) => ({ tags, summary, params: CaseIdParams, body, response: { 200: CaseSummary, 409: CaseConflict } });

  app.post(
    '/api/cases/:id/assign/',
    {
      config: onCase('case.assigned'),
      schema: change('Assign a case to a user, or back to its queue (null)', CaseAssign),
    },
    async (request) =>
      assignCase(db, actorOf(request), Number(request.params.id), request.body.assignee, request.body.version),
  );

  app.post(
    '/api/cases/:id/review/',
    { config: onCase('case.review-started'), schema: change('Start the review of an open case', CaseVersion) },
    async (request) => startReview(db, actorOf(request), Number(request.params.id), request.body.version),
  );

  app.post(
    '/api/cases/:id/resolve/',
    { config: onCase('case.resolved'), schema: change('Resolve a case with a disposition and a note', CaseResolve) },
    async (request) => resolveCase(db, actorOf(request), Number(request.params.id), request.body),
  );

  app.post(
    '/api/cases/:id/reopen/',
    { config: onCase('case.reopened'), schema: change('Reopen a resolved case, with the reason', CaseReopen) },
    async (request) =>
      reopenCase(db, actorOf(request), Number(request.params.id), request.body.reason, request.body.version),
  );

  app.post(
    '/api/cases/:id/notes/',
    {
      config: onCase('case.noted'),
      schema: {
        tags,
        summary: 'Add a note to a case’s timeline',
        params: CaseIdParams,
        body: CaseNote,
        response: { 201: CaseEvent },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return addCaseNote(db, actorOf(request), Number(request.params.id), request.body.note);
    },
  );

  app.get(
    '/api/cases/due_times/',
    {
      schema: {
        tags,
        summary: 'Hours from opening to due, per reason',
        querystring: NoQuery,
        response: { 200: CaseDueTimes },
      },
    },
    async () => ({ due_hours: await dueTimes(db) }),
  );

  app.post(
    '/api/cases/due_times/',
    {
      config: audited('case.due-times-changed'),
      preValidation: requireRole(canSetCaseDueTimes, 'Only a super admin sets the due times of cases.'),
      schema: { tags, summary: 'Set the due time of reasons', body: CaseDueTimes, response: { 200: CaseDueTimes } },
    },
    async (request) => ({ due_hours: await setDueTimes(db, actorOf(request), request.body.due_hours) }),
  );

  app.get(
    '/api/cases/views/',
    {
      schema: {
        tags,
        summary: 'My saved views and those shared with my role',
        querystring: NoQuery,
        response: { 200: CaseViewList },
      },
    },
    async (request) => ({ views: await caseViews(db, request.user) }),
  );

  app.post(
    '/api/cases/views/',
    {
      // A refusal (a name taken) names the view, as its entry does.
      config: {
        audit: {
          action: 'case.view-saved' as const,
          target: targetOfBodyField('case-view', 'name', MAX_CASE_VIEW_NAME_LENGTH),
        },
      },
      schema: { tags, summary: 'Save the queue’s filters as a view', body: NewCaseView, response: { 201: CaseView } },
    },
    async (request, reply) => {
      reply.code(201);
      return saveCaseView(db, actorOf(request), request.body);
    },
  );

  // No body: the id in the path is the only input.
  app.post(
    '/api/cases/views/:id/delete/',
    {
      config: {
        audit: { action: 'case.view-deleted', target: targetOfPathParam('case-view', 'id', viewLabel) },
      },
      schema: {
        tags,
        summary: 'Delete one of my saved views',
        params: CaseViewIdParams,
        response: { 200: MessageAnswer },
      },
    },
    async (request) => ({
      message: `View ${await deleteView(db, actorOf(request), Number(request.params.id))} deleted`,
    }),
  );

  app.post(
    '/api/cases/jobs/',
    {
      config: audited('case.bulk-started'),
      preValidation: requireRole(canRunCaseJobs, 'Your role cannot run bulk actions on cases.'),
      schema: {
        tags,
        summary: 'Assign or resolve many cases as one job',
        body: NewCaseJob,
        response: { 202: CaseJob },
      },
    },
    async (request, reply) => {
      const job = await createCaseJob(db, actorOf(request), request.body);
      jobs?.kick();
      reply.code(202);
      return job;
    },
  );

  app.get(
    '/api/cases/jobs/:id/',
    {
      schema: {
        tags,
        summary: 'A bulk job’s progress',
        params: CaseJobIdParams,
        querystring: NoQuery,
        response: { 200: CaseJob },
      },
    },
    async (request) => caseJob(db, request.user, Number(request.params.id)),
  );
};
