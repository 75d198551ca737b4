// Error answers (docs/errors.md#server-error-bodies). Every body carries `detail`; a route names
// in its config the field its console screen reads besides (`errorField`: `res` for sign-in,
// `error` for the upload, users' actions, passwords, the report and the APK, `message` for white
// labels), which holds the same message; a 400 names the `field` at fault. Domain code throws the
// errors below and knows nothing of bodies: errorHandler alone turns them, Fastify's schema
// failures and anything else into answers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorObject } from 'ajv';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { fieldMessage, type FieldMessages } from '@veritas/shared/domain';
import { DatabaseUnavailable, isDatabaseUnavailable } from './db/availability';
import { notText, notWellFormed } from './schemas';

export type ErrorField = 'res' | 'error' | 'message';

/** What a 503 of the database says of the change asked for: not made, or may have been. */
export const DATABASE_OUTCOMES = ['not-applied', 'unknown'] as const;
type DatabaseOutcome = (typeof DATABASE_OUTCOMES)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body field this route's console screen shows an error from, besides `detail`. */
    errorField?: ErrorField;
    /** The 413 of a body over the call's limit, in the call's words (a photo's size limit). */
    bodyTooLarge?: string;
  }
}

/** A refusal the caller can act on: its status, its message, and what else its body carries. */
export class DomainError extends Error {
  /** Its audit entry is written already: the route's refusal hook adds none (audit/refusals.ts). */
  audited = false;

  constructor(
    readonly statusCode: number,
    message: string,
    /** Further body fields, e.g. `field` of a 400 or `missing_chunks`. */
    readonly extras: Record<string, unknown> = {},
    /** Headers of the answer, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Invalid input: the body names the field the console shows the message on. */
export class BadRequest extends DomainError {
  constructor(field: string, message: string, extras: Record<string, unknown> = {}) {
    super(400, message, { field, ...extras });
  }
}

/** The 401 of a console call without a valid access cookie. */
export const NO_SESSION = 'Authentication credentials were not provided or have expired.';

export class Unauthorized extends DomainError {
  constructor(message: string) {
    super(401, message);
  }
}

export class Forbidden extends DomainError {
  constructor(message: string, extras: Record<string, unknown> = {}) {
    super(403, message, extras);
  }
}

export class NotFound extends DomainError {
  constructor(message: string) {
    super(404, message);
  }
}

export class Conflict extends DomainError {
  constructor(message: string, extras: Record<string, unknown> = {}) {
    super(409, message, extras);
  }
}

export class PayloadTooLarge extends DomainError {
  constructor(message: string) {
    super(413, message);
  }
}

/** Well-formed input the call cannot act on: an Idempotency-Key sent before with another body. */
export class UnprocessableContent extends DomainError {
  constructor(message: string) {
    super(422, message);
  }
}

/** A body of a type the route does not take, recognised from its bytes (a case photo: JPEG, PNG or WebP). */
export class UnsupportedMediaType extends DomainError {
  constructor(message: string) {
    super(415, message);
  }
}

export class TooManyRequests extends DomainError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, {}, { 'retry-after': String(retryAfterSeconds) });
  }
}

/**
 * What Node's HTTP parser refuses before Fastify sees it (a request line and headers over 16 KiB,
 * such as a query of 100k characters, or malformed HTTP) answers the documented body too, with the
 * API's security headers (`headerLines`, each ending in CRLF).
 */
export function clientErrors(headerLines: string) {
  return (error: NodeJS.ErrnoException, socket: Duplex): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, reason, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'The request line and headers are too large.']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'The request took too long to arrive.']
          : [400, 'Bad Request', 'The request is not valid HTTP.'];
    const body = JSON.stringify({ detail: message, error: message });
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\n${headerLines}Content-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}

const NO_HOST = 'The request has no Host header.';

/**
 * An HTTP/1.1 request without a Host header is a 400 (RFC 9112 §3.2), answered here with the
 * documented body and the API's security headers: Node's own (its `requireHostHeader`, turned off
 * in server.ts) has neither. An `onRequest` hook of the root, before any scope's.
 */
export function hostRequired(setHeaders: (request: IncomingMessage, answer: ServerResponse) => void) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.raw.httpVersion !== '1.1' || request.headers.host !== undefined) return;
    setHeaders(request.raw, reply.raw);
    // As Node's own refusal, the connection ends with the answer.
    return reply.code(400).header('connection', 'close').send({ detail: NO_HOST, error: NO_HOST });
  };
}

const UNMET_EXPECTATION = 'The server does not meet the Expect header: only 100-continue is known.';

/**
 * An `Expect` other than 100-continue is a 417 (RFC 9110 §10.1.1), which Node answers with no body
 * nor security headers unless the server listens for `checkExpectation`: this listener answers
 * the documented body with them.
 */
export function unmetExpectations(setHeaders: (request: IncomingMessage, answer: ServerResponse) => void) {
  return (request: IncomingMessage, answer: ServerResponse): void => {
    const body = JSON.stringify({ detail: UNMET_EXPECTATION, error: UNMET_EXPECTATION });
    setHeaders(request, answer);
    answer.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    answer.end(body);
  };
}

/** Fastify's router refusals (its `frameworkErrors`), by code: status and message. */
const ROUTER_REFUSALS: Readonly<Record<string, readonly [number, string]>> = {
  FST_ERR_BAD_URL: [400, 'The address is not valid: a %-escape in its path is not UTF-8 text.'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'A part of the address is longer than 100 characters.'],
};

/**
 * What Fastify's router refuses before any scope, and so any scope's hooks, has the request (a
 * path whose %-escapes are no UTF-8 text, a path parameter over 100 characters) answers the
 * documented body with the API's security headers (`setHeaders`), as every other refusal does.
 */
export function routerRefusals(setHeaders: (request: IncomingMessage, answer: ServerResponse) => void) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const [status, message] = ROUTER_REFUSALS[error.code] ?? [400, 'The address is not valid.'];
    setHeaders(request.raw, reply.raw);
    return reply.code(status).send({ detail: message, error: message });
  };
}

const DATABASE_UNAVAILABLE = 'The database is unavailable. Try again in a moment.';
/** A restart or failover of PostgreSQL takes about a second. */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

const INSTANCE_STOPPING = 'This server instance is stopping. Try again in a moment.';

/**
 * The 503 of a request that reaches an instance while it stops (docs/operations.md#stopping): it
 * was not started, so repeating it is safe, and the next try finds another instance, or this one
 * restarted.
 */
export class InstanceStopping extends DomainError {
  constructor() {
    const outcome: DatabaseOutcome = 'not-applied';
    super(503, INSTANCE_STOPPING, { outcome }, { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) });
  }
}

const INTERNAL_ERROR = 'Internal server error';

/** The status and message an error is answered with, for work that outlives its call (an upload's failure). */
export function answerOf(error: unknown): { status: number; detail: string } {
  if (error instanceof DomainError) return { status: error.statusCode, detail: error.message };
  if (isDatabaseUnavailable(error)) return { status: 503, detail: DATABASE_UNAVAILABLE };
  return { status: 500, detail: INTERNAL_ERROR };
}

/** The one error handler of the API (app.ts). */
export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const errorField = request.routeOptions.config.errorField;
  const answer = (
    statusCode: number,
    message: string,
    extras: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) =>
    reply
      .code(statusCode)
      .headers(headers)
      .send({ detail: message, ...(errorField ? { [errorField]: message } : {}), ...extras });

  if (error instanceof DomainError) return answer(error.statusCode, error.message, error.extras, error.headers);
  const { statusCode = 500, validation, validationContext } = error as Partial<FastifyError>;
  if (validation && validationContext) {
    const schema = request.routeOptions.schema?.[validationContext] as ObjectSchema;
    const fault = schemaFault(schema, validation as ErrorObject[]);
    return answer(400, fault.message, { field: fault.field });
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn(error);
    // `outcome` tells a client whether repeating a write is safe (docs/errors.md#database-unavailable).
    const outcome: DatabaseOutcome =
      error instanceof DatabaseUnavailable && error.outcomeUnknown ? 'unknown' : 'not-applied';
    return answer(503, DATABASE_UNAVAILABLE, { outcome }, { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) });
  }
  if (statusCode >= 500) {
    request.log.error(error);
    return answer(500, INTERNAL_ERROR, { error: INTERNAL_ERROR });
  }
  // Fastify's own client errors: a body it cannot read (malformed JSON, too large, of a type the
  // call does not take) in the API's words, a 400 naming `body` as every 400 names its input.
  const code = (error as Partial<FastifyError>).code;
  const { bodyTooLarge } = request.routeOptions.config;
  const message =
    (code === 'FST_ERR_CTP_BODY_TOO_LARGE' && bodyTooLarge) ||
    (BODY_REFUSALS[code ?? ''] ?? (error instanceof Error ? error.message : String(error)));
  return answer(statusCode, message, { error: message, ...(statusCode === 400 ? { field: 'body' } : {}) });
}

/** What Fastify's body parsing refuses, by its code, in the API's words (docs/errors.md). */
const BODY_REFUSALS: Readonly<Record<string, string>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The body is not valid JSON, or holds a __proto__ or constructor key.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The body is empty; JSON was announced.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The body is too large for this call.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The body is of a type this call does not take.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The body does not match its Content-Length.',
};

/**
 * Which of two faults of one value is told: text with a NUL is told so, though a union's other
 * branch also calls it of the wrong type (it is text: that branch is not the one meant); a wrong
 * type before the rest.
 */
const precedence = ({ keyword }: ErrorObject) => (keyword === 'wellFormed' ? 2 : keyword === 'type' ? 1 : 0);

/**
 * Whether `error` is a fault of a part of the value `other` is a fault of (an item of a list): told
 * first, as the list's own message may hold only of valid items (a webhook's 'Name each event
 * once.', past the number of events, is true only when none is unknown).
 */
const isWithin = (error: ErrorObject, other: ErrorObject) => error.instancePath.startsWith(`${other.instancePath}/`);

/** A list or an object where text is due: told so, not as the text missing (docs/errors.md). */
const isListOrObjectForText = ({ keyword, params }: ErrorObject, value: unknown) =>
  keyword === 'type' && (params as { type?: unknown }).type === 'string' && typeof value === 'object' && value !== null;

export interface ObjectSchema {
  properties: Record<string, { errorMessages?: FieldMessages }>;
  required?: string[];
}

/**
 * The 400 of a request that fails its schema, as a form read top to bottom would report it: the
 * first field in the schema's order that has a fault, with the message its schema gives (see
 * FieldMessages in schemas.ts). ajv reports every fault (allErrors), each with the value and the
 * schema that refused it (verbose). Written here rather than with ajv-errors: its `${0}` writes the
 * value as JSON (quoted), its messages follow the keyword alone while "missing" depends on the
 * value, and it cannot choose the first field in the schema's order. Also read for each item of a
 * body read as a stream (src/integrations/shipments.ts).
 */
export function schemaFault(schema: ObjectSchema, errors: ErrorObject[]): { field: string; message: string } {
  const fields = Object.keys(schema.properties);
  let found: { index: number; error: ErrorObject; field: string; message: string } | undefined;
  for (const error of errors) {
    const fault = faultOf(schema, error);
    if (!fault) continue;
    const position = fields.indexOf(fault.field);
    const index = position === -1 ? fields.length : position;
    // The earliest field; of its faults the first ajv reports (e.g. the form of a date before the
    // day itself), but an item's before its list's, and a value's wrong type before what else it
    // breaks (ajv reports `enum` first).
    const better =
      !found ||
      index < found.index ||
      (index === found.index &&
        (isWithin(error, found.error) ||
          (error.instancePath === found.error.instancePath && precedence(error) > precedence(found.error))));
    if (!better) continue;
    const message =
      error.keyword === 'wellFormed'
        ? notWellFormed(fault.field)
        : isListOrObjectForText(error, fault.value) && !fault.messages?.type
          ? notText(fault.field)
          : fault.messages
            ? fieldMessage(fault.messages, error.keyword, fault.value)
            : `Invalid value (${error.keyword}).`;
    found = { index, error, field: fault.field, message };
  }
  return found ?? { field: fields[0] ?? '', message: errors[0]?.message ?? 'Invalid request.' };
}

function faultOf(
  schema: ObjectSchema,
  error: ErrorObject,
): { field: string; messages?: FieldMessages; value: unknown } | undefined {
  if (error.keyword === 'required') {
    const field = (error.params as { missingProperty: string }).missingProperty;
    const owner = error.parentSchema as ObjectSchema;
    return { field, messages: owner.properties[field]?.errorMessages, value: undefined };
  }
  const [, field] = error.instancePath.split('/');
  if (field === undefined) {
    // Not an object at all (no body, a list, a string): as if every field were missing. Other
    // faults of the whole body (a failed `if`) are reported through the fields they concern.
    if (error.keyword !== 'type') return undefined;
    const first = Object.keys(schema.properties).find((name) => schema.required?.includes(name));
    return first === undefined
      ? undefined
      : { field: first, messages: schema.properties[first]!.errorMessages, value: undefined };
  }
  // The schema that refused the value (e.g. a list's item) may say more than its field's.
  const own = (error.parentSchema as { errorMessages?: FieldMessages } | undefined)?.errorMessages;
  return { field, messages: own ?? schema.properties[field]?.errorMessages, value: error.data };
}
