// The TypeBox builders the API's schemas are written with. Input is read the same way everywhere:
// text without the spaces around it, a field that is absent, null, empty or not text reads as
// missing, ids come as numbers or as text of digits, and unknown fields are ignored. Nothing is
// coerced. Each field carries the messages of its 400s (`errorMessages`), so a refusal says what the
// console shows on that field, and a form checks it before sending (form-check.ts). `transform`
// and the formats `id` and `calendar-day` are the API's validator's (api/src/schemas.ts).
import { Kind, Type, TypeRegistry, type StringOptions, type TSchema } from '@sinclair/typebox';

/**
 * The messages of a field's 400s: `missing` when the field is absent, null, empty text or of
 * another type (unless `type` says otherwise); else the message of the JSON-schema keyword that
 * failed (maxLength, pattern, enum, format...), `{value}` standing for the value.
 */
export interface FieldMessages {
  missing: string;
  [keyword: string]: string;
}

/**
 * The longest text a field takes unless it says otherwise: no name, code or password is near it,
 * and a sign-in must not hash nor record a megabyte sent as a username or a password.
 */
const MAX_TEXT_LENGTH = 1024;
const tooLong = (limit: number) => `Text may be at most ${limit} characters.`;

/**
 * Text without the spaces around it; empty text is missing unless `minLength: 0` allows it. Too
 * long, it is refused with the field's own limit unless `messages` say it otherwise.
 */
export const Text = (messages: FieldMessages, options: StringOptions = {}) => {
  const maxLength = options.maxLength ?? MAX_TEXT_LENGTH;
  return Type.String({
    transform: ['trim'],
    minLength: 1,
    ...options,
    maxLength,
    errorMessages: { maxLength: tooLong(maxLength), ...messages },
  });
};

/** A password: taken exactly as typed, any text but the empty one. */
export const Secret = (missing: string) =>
  Type.String({
    minLength: 1,
    maxLength: MAX_TEXT_LENGTH,
    errorMessages: { missing, maxLength: tooLong(MAX_TEXT_LENGTH) },
  });

/** One of `values`, after trimming. */
export const OneOf = <T extends string>(values: readonly T[], messages: FieldMessages) =>
  Type.Unsafe<T>({
    [Kind]: 'OneOf',
    type: 'string',
    transform: ['trim'],
    minLength: 1,
    enum: [...values],
    errorMessages: messages,
  });

// TypeBox's own checker (form-check.ts) knows no `enum` of text: what OneOf means to it.
TypeRegistry.Set<{ enum: unknown[] }>(
  'OneOf',
  (schema, value) => typeof value === 'string' && schema.enum.includes(value.trim()),
);

/** A database id: a positive integer, or text of digits (as a form sends it); Number() reads both. */
export const Id = (missing: string) =>
  Type.Union([Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), Type.String({ format: 'id' })], {
    errorMessages: { missing },
  });

/** A calendar day written YYYY-MM-DD: `pattern` checks the form, `format` the day. */
export const Day = (messages: FieldMessages) =>
  Type.String({
    transform: ['trim'],
    minLength: 1,
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    format: 'calendar-day',
    errorMessages: messages,
  });

/** A filter of text: absent or empty text means "any". */
export const OptionalText = (name: string, maxLength: number) =>
  Type.Optional(
    Text(
      { missing: `${name} must be text.`, maxLength: `${name} must be at most ${maxLength} characters.` },
      { minLength: 0, maxLength },
    ),
  );

/** A filter of one of `values`: absent or empty text means "any". */
export const OptionalChoice = <T extends string>(name: string, values: readonly T[]) => {
  const message = `${name} must be one of ${values.join(', ')}.`;
  return Type.Optional(
    Type.Unsafe<T | ''>({ ...OneOf(['', ...values], { missing: message, enum: message }), minLength: 0 }),
  );
};

/** One of `values` in an answer. */
export const Choice = <T extends string>(values: readonly T[]) => Type.Unsafe<T>({ type: 'string', enum: [...values] });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The answer of a call that only confirms what it did. */
export const MessageAnswer = Type.Object({ message: Type.String() });

/**
 * Every error answer (docs/errors.md#server-error-bodies): `detail`, the same message in the field
 * the calling screen reads (`res`, `error` or `message`, per route), and `field` for a 400.
 */
export const ErrorBody = Type.Object(
  {
    detail: Type.String(),
    field: Type.Optional(Type.String({ description: 'The request field at fault (400).' })),
  },
  { additionalProperties: true },
);

/** The query of a call that takes no parameters. */
export const NoQuery = Type.Object({});
