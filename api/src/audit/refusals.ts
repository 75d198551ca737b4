// Refusals of audited actions (docs/audit.md#refusals): a route that names its action in
// `config.audit` has each 403, 409 and 429 it answers recorded, whichever check refused it (the
// role gate, the XSRF check, a rule of the domain, the sign-in throttle), with the route refused.
// The refused action changed nothing, so its entry is written in a transaction of its own once the
// answer is known.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditAction, AuditTargetKind } from '@veritas/shared/domain';
import { serialIdOf, type Db } from '../db/schema';
import { DomainError } from '../http-errors';
import { auditByOf } from './actor';
import { ACCESS_COOKIE } from '../auth/cookies';
import { authenticate } from '../auth/sessions';
import { recordAuditAlone, userBy, type AuditBy, type AuditTarget } from './trail';

export interface AuditedRoute {
  action: AuditAction;
  /** What the request was about, as far as it says (its body or parameters): the entry's target. */
  target?: (request: FastifyRequest, db: Db) => AuditTarget | null | Promise<AuditTarget | null>;
  /** The statuses recorded as refusals; default 403, 409 and 429. */
  refusals?: readonly number[];
  /** What every entry of this route names, its refusals too (e.g. a sign-in's `channel`). */
  details?: Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The action this route performs, so that its refusals are recorded. */
    audit?: AuditedRoute;
  }
}

/** A target named by a text field of the body (a username, a brand, a group's code), cut to `maxLength`. */
export function targetOfBodyField(kind: AuditTargetKind, field: string, maxLength = 200): AuditedRoute['target'] {
  return (request) => {
    const value = (request.body as Record<string, unknown> | undefined)?.[field];
    return typeof value === 'string' ? { kind, label: value.trim().slice(0, maxLength) } : null;
  };
}

/**
 * A target named by a parameter of the path, cut to 100 characters: a name (a remote's), its own
 * label; an id, labelled by `labelOfRow` as the action's entries label what it names (an endpoint
 * by its address, a case by its tracking ID), or `#{id}` when it names nothing.
 */
export function targetOfPathParam(
  kind: AuditTargetKind,
  param: string,
  labelOfRow?: (id: number, db: Db) => Promise<string | undefined>,
): AuditedRoute['target'] {
  return async (request, db) => {
    const value = (request.params as Record<string, unknown> | undefined)?.[param];
    if (typeof value !== 'string') return null;
    const id = value.slice(0, 100);
    if (!labelOfRow) return { kind, id, label: id };
    const serial = serialIdOf(id);
    const label = serial === null ? undefined : await labelOfRow(serial, db);
    return { kind, id, label: label ?? `#${id}` };
  };
}

const REFUSALS: readonly number[] = [403, 409, 429];
/** Requests whose refusal the domain recorded itself (DomainError.audited). */
const recordedAlready = new WeakSet<FastifyRequest>();

function messageOf(payload: unknown): string | null {
  if (typeof payload !== 'string') return null;
  try {
    const { detail } = JSON.parse(payload) as { detail?: unknown };
    return typeof detail === 'string' ? detail : null;
  } catch {
    return null;
  }
}

/**
 * Who was refused. The XSRF check refuses before the scope's hook identified the caller: the
 * session its access cookie names, if any, is who sent the request.
 */
async function refusedBy(request: FastifyRequest, db: Db): Promise<AuditBy> {
  if (request.user || request.accessToken) return auditByOf(request);
  const user = await authenticate(db, request.cookies[ACCESS_COOKIE]).catch(() => null);
  return user ? userBy(user, request.ip ?? null) : auditByOf(request);
}

export function recordRefusals(app: FastifyInstance, db: Db): void {
  app.addHook('onError', async (request, _reply, error) => {
    if (error instanceof DomainError && error.audited) recordedAlready.add(request);
  });
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const audited = request.routeOptions.config.audit;
    if (!audited || !(audited.refusals ?? REFUSALS).includes(reply.statusCode) || recordedAlready.has(request))
      return payload;
    let target: AuditTarget | null = null;
    try {
      target = (await audited.target?.(request, db)) ?? null;
    } catch {
      // A body too malformed to name its target is recorded without one.
    }
    try {
      await recordAuditAlone(db, await refusedBy(request, db), {
        action: audited.action,
        outcome: 'refused',
        target,
        details: {
          ...audited.details,
          status: reply.statusCode,
          message: messageOf(payload),
          route: `${request.method} ${request.routeOptions.url}`,
        },
      });
    } catch (error) {
      // The action was refused either way; the answer stands.
      request.log.error({ err: error }, 'could not record a refused action in the audit trail');
    }
    return payload;
  });
}
