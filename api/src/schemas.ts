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

export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema }) => ajv.compile(schema);

/** Text without the spaces around it; empty text is missing unless `minLength: 0` allows it. */
export const Text = (messages: FieldMessages, options: StringOptions = {}) =>
  Type.String({ transform: ['trim'], minLength: 1, ...options, errorMessages: messages });

/** A password: taken exactly as typed, any text but the empty one. */
export const Secret = (missing: string) => Type.String({ minLength: 1, errorMessages: { missing } });

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
