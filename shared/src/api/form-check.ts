// A form checks what it is about to send against the call's own schema, with TypeBox's checker,
// and says what is wrong in the words of the schema's `errorMessages`: those of the server's 400
// for the same fault (api/src/http-errors.ts). So a rule and its message are written once, beside
// the schema. Formats (a day of the calendar, an id) are left to the server: their rules are its
// validator's (api/src/schemas.ts).
import { Errors, ValueErrorType } from '@sinclair/typebox/errors';
import type { TObject, TSchema } from '@sinclair/typebox';
import type { FieldMessages } from './fields';

/** The `errorMessages` keyword of each fault a form can have; any other fault reads as missing. */
const KEYWORDS: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.StringMaxLength]: 'maxLength',
  [ValueErrorType.StringPattern]: 'pattern',
  [ValueErrorType.NumberMinimum]: 'minimum',
  [ValueErrorType.IntegerMinimum]: 'minimum',
  [ValueErrorType.NumberMaximum]: 'maximum',
  [ValueErrorType.IntegerMaximum]: 'maximum',
  // OneOf's check (fields.ts): a value out of its list.
  [ValueErrorType.Kind]: 'enum',
};

/**
 * A field's message for a fault of `keyword`: absent, null or empty text is missing, else the
 * keyword's message, `{value}` standing for a text value. The server's 400s word their faults with
 * it too (api/src/http-errors.ts). Only text is written into `{value}`: a value of another type is
 * refused for its type, and turning it into text could run the caller's own toString or valueOf.
 * The replacer is a function so that `$&` and the like in the value are written as they are.
 */
export function fieldMessage(messages: FieldMessages, keyword: string | undefined, value: unknown): string {
  if (value === undefined || value === null || value === '') return messages.missing;
  const message = (keyword && messages[keyword]) || messages.missing;
  return typeof value === 'string' ? message.replace('{value}', () => value) : message;
}

/** The branch of the schema's `if`/`then`/`else` that applies to `value`, which TypeBox leaves out. */
function branchOf(schema: TSchema, value: unknown): TSchema | undefined {
  const { if: condition, then, else: otherwise } = schema as { if?: TSchema; then?: TSchema; else?: TSchema };
  if (!condition) return undefined;
  return Errors(condition, value).First() === undefined ? then : otherwise;
}

/**
 * What is wrong with `value` (as it will be sent: trimmed), field by field in the schema's order:
 * each faulty field with the message of its first fault.
 */
export function formFaults(schema: TObject, value: Record<string, unknown>): Map<string, string> {
  const branch = branchOf(schema, value);
  const errors = [...Errors(schema, value), ...(branch ? Errors(branch, value) : [])];
  const faults = new Map<string, string>();
  for (const field of Object.keys(schema.properties)) {
    const error = errors.find(
      (candidate) => candidate.path === `/${field}` && candidate.type !== ValueErrorType.StringFormatUnknown,
    );
    const messages = (error?.schema as { errorMessages?: FieldMessages } | undefined)?.errorMessages;
    if (error && messages) faults.set(field, fieldMessage(messages, KEYWORDS[error.type], error.value));
  }
  return faults;
}

/** The first thing wrong with `value`, as a form shows it, or null. */
export function formProblem(schema: TObject, value: Record<string, unknown>): string | null {
  const [first] = formFaults(schema, value).values();
  return first ?? null;
}
