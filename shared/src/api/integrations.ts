// Integrations (docs/integrations.md): the API keys an order system calls /veritas/api/v1/ with.
// A key is an access token (as the deploy tokens are, ./registry.ts) whose scopes name what it may
// call; its `scope` is those scopes joined by spaces, as OAuth 2.0 writes a scope list.
import { Type, type Static } from '@sinclair/typebox';
import { Day, OneOf, Text } from './fields';

/** What a key may call: `<capability>:<target>`, as a deploy token's `deploy:<remote>`. */
export const API_KEY_SCOPES = ['shipments:write', 'records:read', 'cases:read', 'cases:write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** What each scope allows, as the Integrations screen names it. */
export const API_KEY_SCOPE_LABELS: Readonly<Record<ApiKeyScope, string>> = {
  'shipments:write': 'Send shipments',
  'records:read': 'Read records',
  'cases:read': 'Read cases',
  'cases:write': 'Resolve cases',
};

/** The scopes of a key's `scope` text. */
export const scopesOf = (scope: string): string[] => scope.split(' ').filter(Boolean);

export const ApiKeyCreatePayload = Type.Object({
  label: Text({ missing: 'Give the key a label.' }, { maxLength: 100 }),
  scopes: Type.Array(
    OneOf(API_KEY_SCOPES, {
      missing: 'Choose what the key may call.',
      enum: `A scope is one of ${API_KEY_SCOPES.join(', ')}.`,
    }),
    {
      minItems: 1,
      maxItems: API_KEY_SCOPES.length,
      uniqueItems: true,
      errorMessages: {
        missing: 'Choose what the key may call.',
        minItems: 'Choose what the key may call.',
        maxItems: 'Name each scope once.',
        uniqueItems: 'Name each scope once.',
      },
    },
  ),
  /** The last day the key works, YYYY-MM-DD (it ends at the end of that day, UTC). */
  expiresOn: Day({
    missing: 'Choose when the key expires.',
    pattern: 'Write the expiry as YYYY-MM-DD.',
    format: 'Write the expiry as a day of the calendar.',
  }),
});
export type ApiKeyCreatePayload = Static<typeof ApiKeyCreatePayload>;
