// Sign-in and the session's own calls (docs/sessions.md): user/login/, user/is_LoggedIn/,
// user/get_role/, and the mobile app's app/login/.
import { Type, type Static } from '@sinclair/typebox';
import { ROLES } from '../roles';
import { SERVER_FEATURES } from '../features';
import { Choice, Nullable, Secret, Text } from './fields';

/** The body of both sign-ins. */
export const Credentials = Type.Object({
  username: Text({ missing: 'Username is required.' }),
  password: Secret('Password is required.'),
});

export const RoleName = Choice(ROLES);

export const LoginResponse = Type.Object({
  is_webview: Type.Boolean({ description: 'false: the role has no console; no session was started.' }),
  role: RoleName,
});
export type LoginResponse = Static<typeof LoginResponse>;

export const LoggedInAnswer = Type.Object({ is_logged_in: Type.Literal(true) });

export const RoleResponse = Type.Object({
  user: Type.String(),
  role: RoleName,
  hub_code: Nullable(Type.String()),
  features: Type.Optional(
    Type.Array(Choice(SERVER_FEATURES), {
      description:
        'The calls this server offers beyond the spec (docs/architecture.md#server-features); a server that follows the spec alone leaves it out.',
    }),
  ),
});
export type RoleResponse = Static<typeof RoleResponse>;

export const AppLoginAnswer = Type.Object({
  token: Type.String({ description: 'The bearer token of the app calls.' }),
  role: RoleName,
  hub_code: Nullable(Type.String()),
});
