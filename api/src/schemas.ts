// The ajv that checks every request of the API against its schema (app.ts makes it the routes'
// validator). The schemas are @veritas/shared/domain's (shared/src/api/), written with the builders
// of shared/src/api/fields.ts; this ajv gives their keywords and formats a meaning: `transform`
// trims, `errorMessages` carries each field's messages (read by http-errors.ts), and the formats `id`,
// `calendar-day`, `time-zone` and `date-time`. Nothing is coerced (ajv's coerceTypes, which Fastify turns on
// by default, would accept 12 for a name or true for an id).
import { Ajv } from 'ajv';
import ajvKeywords from 'ajv-keywords';
import type { TSchema } from '@sinclair/typebox';
import type { FastifySchemaCompiler } from 'fastify';
import { isCalendarDay, isTimeZone } from '@veritas/shared/domain';

const INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/**
 * An instant written ISO 8601 with its offset (2026-11-24T09:30:00+05:30), of a day the calendar
 * has: Date.parse alone takes 2026-02-30 for 2 March.
 */
function isInstant(text: string): boolean {
  const match = INSTANT.exec(text);
  if (!match) return false;
  const [day = '', hour, minute, second = '0', offsetHours = '0', offsetMinutes = '0'] = match.slice(1);
  return (
    isCalendarDay(day) &&
    Number(hour) < 24 &&
    Number(minute) < 60 &&
    Number(second) < 60 &&
    Number(offsetHours) < 24 &&
    Number(offsetMinutes) < 60 &&
    Number.isFinite(Date.parse(text))
  );
}

// allErrors: the 400 names the first faulty field in the schema's order, whatever order ajv
// checks keywords in (`required` before `properties`). Fastify leaves it off because a long list
// of faulty items yields as many errors; our bodies are at most 1 MiB, and the only list (a
// brand's manufacturers) is checked after the admin-only role check. verbose: each error carries
// its value and the schema that refused it, which http-errors.ts reads.
// allowUnionTypes: a field may list its types (`type: ['string', 'null']`), so that a refusal names
// the one rule its value broke rather than each branch of an anyOf.
const ajv = new Ajv({ allErrors: true, verbose: true, allowUnionTypes: true, keywords: ['errorMessages'] });
// `transform: ['trim']` trims a text in the body before the other keywords check it.
ajvKeywords(ajv, ['transform']);
ajv.addFormat(
  'id',
  (text: string) => /^\d+$/.test(text.trim()) && Number.isSafeInteger(Number(text)) && Number(text) > 0,
);
// Empty text is another keyword's business: a required day's minLength, an optional filter's 'any'.
ajv.addFormat('calendar-day', (text: string) => text === '' || isCalendarDay(text));
ajv.addFormat('time-zone', isTimeZone);
ajv.addFormat('date-time', isInstant);

// Text with a NUL or an unpaired surrogate is refused wherever a request carries text: PostgreSQL
// cannot store a NUL, SQLite's search cuts the text at it, and an unpaired surrogate would be
// stored as U+FFFD, another text than the one sent.
/** Text without a NUL or a lone surrogate: what every text the API takes must be. */
export function isWellFormedText(text: string): boolean {
  // With the u flag a surrogate of a pair is part of one code point: \p{Cs} matches only a lone one.
  return !/[\0\p{Cs}]/u.test(text);
}

/** The refusal of `field`'s text that is not well formed (docs/errors.md#server-error-bodies). */
export const notWellFormed = (field: string) => `${field} must be text without NUL characters or unpaired surrogates.`;

/** The refusal of a list or an object sent where `field`'s text is due (a repeated query parameter). */
export const notText = (field: string) => `${field} must be text.`;

ajv.addKeyword({
  keyword: 'wellFormed',
  type: 'string',
  schemaType: 'boolean',
  validate: (_: boolean, text: string) => isWellFormedText(text),
});

/** The schema with `wellFormed` on every text of it (a copy: the routes' schemas are also the OpenAPI document's). */
function wellFormedText(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(wellFormedText);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, wellFormedText(value)]));
  const { type } = schema as { type?: unknown };
  return type === 'string' || (Array.isArray(type) && type.includes('string')) ? { ...copy, wellFormed: true } : copy;
}

export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema }) =>
  ajv.compile(wellFormedText(schema) as TSchema);
