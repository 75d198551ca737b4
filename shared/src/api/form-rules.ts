// The rules of the API's schemas that the console's forms also check before they send, and the
// server's words for them: one definition for the schema and the form. No TypeBox here, so a
// form's chunk carries the few rules it checks, not the schemas.

/** A calendar day as the API writes it, YYYY-MM-DD. */
export const DAY_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

/** An email address as user/create/ accepts it. */
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';

/** The one role that belongs to no organization or group: central_ops work across all hubs. */
export const GROUPLESS_ROLE = 'central_ops';

/** What the registry says of a token that lacks a label or an expiry (registry/tokens/). */
export const TOKEN_MESSAGES = {
  label: 'Give the token a label.',
  expiresOn: 'Choose when the token expires.',
} as const;

/** What the registry says of a canary's share of users out of bounds. */
export const CANARY_SHARE_MESSAGE = 'The share of users is 1 to 99 percent.';
