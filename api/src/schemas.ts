// Request schemas: the TypeBox builders the routes declare their bodies with, and the ajv that
// checks every request of the API against them (app.ts makes it the routes' validator).
//
// Input is read as it always was: text without the spaces around it, a field that is absent,
// null, empty or not text reads as missing, ids come as numbers or as text of digits, and unknown
// fields are ignored. Nothing is coerced (ajv's coerceTypes, which Fastify turns on by default,
// would accept 12 for a name or true for an id). Each field carries the messages of its 400s
// (errorMessages, read by errors.ts), so a refusal says what the console shows on that field.
import { Ajv } from 'ajv';
import ajvKeywords from 'ajv-keywords';
import { Type, type StringOptions, type TSchema } from '@sinclair/typebox';
import type { FastifySchemaCompiler } from 'fastify';
import { isTimeZone } from '@veritas/shared/domain';
import { localMidnight } from './report/dates';

/**
 * The messages of a field's 400s: `missing` when the field is absent, null, empty text or of
 * another type (unless `type` says otherwise); else the message of the JSON-schema keyword that
 * failed (maxLength, pattern, enum, format...), `{value}` standing for the value.
 */
export interface FieldMessages {
  missing: string;
  [keyword: string]: string;
}

// allErrors: the 400 names the first faulty field in the schema's order, whatever order ajv
// checks keywords in (`required` before `properties`). Fastify leaves it off because a long list
// of faulty items yields as many errors; our bodies are at most 1 MiB, and the only list (a
// brand's manufacturers) is checked after the admin-only role check. verbose: each error carries
// its value and the schema that refused it, which errors.ts reads.
const ajv = new Ajv({ allErrors: true, verbose: true, keywords: ['errorMessages'] });
// `transform: ['trim']` trims a text in the body before the other keywords check it.
ajvKeywords(ajv, ['transform']);
ajv.addFormat(
  'id',
  (text: string) => /^\d+$/.test(text.trim()) && Number.isSafeInteger(Number(text)) && Number(text) > 0,
);
ajv.addFormat('calendar-day', (text: string) => localMidnight(text) !== null);
ajv.addFormat('time-zone', isTimeZone);

// Text with a NUL or an unpaired surrogate is refused wherever a request carries text: PostgreSQL
// cannot store a NUL, SQLite's search cuts the text at it, and an unpaired surrogate would be
// stored as U+FFFD, another text than the one sent.
ajv.addKeyword({
  keyword: 'wellFormed',
  type: 'string',
  schemaType: 'boolean',
  // With the u flag a surrogate of a pair is part of one code point: \p{Cs} matches only a lone one.
  validate: (_: boolean, text: string) => !/[\0\p{Cs}]/u.test(text),
});

/** The schema with `wellFormed` on every text of it (a copy: the routes' schemas are also the OpenAPI document's). */
function wellFormedText(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(wellFormedText);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, wellFormedText(value)]));
  return (schema as { type?: unknown }).type === 'string' ? { ...copy, wellFormed: true } : copy;
}

export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema }) =>
  ajv.compile(wellFormedText(schema) as TSchema);

/**
 * The longest text a field takes unless it says otherwise: no name, code or password is near it,
 * and a sign-in must not hash nor record a megabyte sent as a username or a password.
 */
const MAX_TEXT_LENGTH = 1024;
const tooLong = `Text may be at most ${MAX_TEXT_LENGTH} characters.`;

/** Text without the spaces around it; empty text is missing unless `minLength: 0` allows it. */
export const Text = (messages: FieldMessages, options: StringOptions = {}) =>
  Type.String({
    transform: ['trim'],
    minLength: 1,
    maxLength: MAX_TEXT_LENGTH,
    ...options,
    errorMessages: { maxLength: tooLong, ...messages },
  });

/** A password: taken exactly as typed, any text but the empty one. */
export const Secret = (missing: string) =>
  Type.String({ minLength: 1, maxLength: MAX_TEXT_LENGTH, errorMessages: { missing, maxLength: tooLong } });

/** One of `values`, after trimming. */
export const OneOf = <T extends string>(values: readonly T[], messages: FieldMessages) =>
  Type.Unsafe<T>({ type: 'string', transform: ['trim'], minLength: 1, enum: [...values], errorMessages: messages });

/** A database id: a positive integer, or text of digits (as a form sends it); Number() reads both. */
export const Id = (missing: string) =>
  Type.Union([Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), Type.String({ format: 'id' })], {
    errorMessages: { missing },
  });

/** The answer of a call that only confirms what it did. */
export const MessageAnswer = Type.Object({ message: Type.String() });

/** A calendar day written YYYY-MM-DD (report/dates.ts): `pattern` checks the form, `format` the day. */
export const Day = (messages: FieldMessages) =>
  Type.String({
    transform: ['trim'],
    minLength: 1,
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    format: 'calendar-day',
    errorMessages: messages,
  });
