// The ajv that checks every request of the API against its schema (app.ts makes it the routes'
// validator). The schemas are @veritas/shared/domain's (shared/src/api/), written with the builders
// of shared/src/api/fields.ts; this ajv gives their keywords and formats a meaning: `transform`
// trims, `errorMessages` carries each field's messages (read by errors.ts), and the formats `id`,
// `calendar-day` and `time-zone`. Nothing is coerced (ajv's coerceTypes, which Fastify turns on
// by default, would accept 12 for a name or true for an id).
import { Ajv } from 'ajv';
import ajvKeywords from 'ajv-keywords';
import type { TSchema } from '@sinclair/typebox';
import type { FastifySchemaCompiler } from 'fastify';
import { isTimeZone } from '@veritas/shared/domain';
import { localMidnight } from './report/dates';

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
