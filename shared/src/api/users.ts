// Users, groups and passwords (docs/screens.md#create-user-and-create-group,
// docs/screens.md#deactivate-users, api/README.md#passwords).
import { Type, type Static } from '@sinclair/typebox';
import { MAX_USERNAME_LENGTH, ROLES } from '../roles';
import { Choice, Id, OneOf, Secret, Text } from './fields';
import { RoleName } from './sign-in';

export { MAX_USERNAME_LENGTH };

/**
 * A new username's characters: letters, digits and @ . + - _ (Django's rule, whose API this one
 * follows): a sign-in name typed on a phone and shown in tables and logs, no spaces or markup.
 * Existing accounts keep their names; signing in checks no pattern.
 */
const USERNAME_PATTERN = '^[A-Za-z0-9@.+_-]+$';
const USERNAME_CHARACTERS_MESSAGE = 'Username may contain only letters, digits and @ . + - _ characters.';

/** The one role that belongs to no organization or group: central_ops work across all hubs. */
export const GROUPLESS_ROLE = 'central_ops';

export const ORGANIZATIONS = ['hub', 'RC'] as const;

export type Organization = (typeof ORGANIZATIONS)[number];

export const UserCreatePayload = Type.Object(
  {
    username: Text(
      {
        missing: 'Username is required.',
        maxLength: `Username must be at most ${MAX_USERNAME_LENGTH} characters.`,
        pattern: USERNAME_CHARACTERS_MESSAGE,
      },
      { maxLength: MAX_USERNAME_LENGTH, pattern: USERNAME_PATTERN },
    ),
    email: Text(
      {
        missing: 'Email is required.',
        maxLength: 'Enter a valid email address.',
        pattern: 'Enter a valid email address.',
      },
      { maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$' },
    ),
    password: Secret('Password is required.'),
    role: OneOf(ROLES, { missing: 'Role is required.', enum: 'Unknown role "{value}".' }),
    // Checked by the `else` below: every role but central_ops (who work across all hubs and belong
    // to no group) needs both; central_ops' are ignored, whatever they are.
    organization: Type.Optional(Type.Unknown({ description: 'hub or RC; required unless the role is central_ops.' })),
    group: Type.Optional(Type.Unknown({ description: "The group's code; required unless the role is central_ops." })),
  },
  {
    // A TypeBox schema, not bare JSON, so that TypeBox's checker can read it too (form-check.ts).
    if: Type.Object({ role: Type.String({ pattern: `^\\s*${GROUPLESS_ROLE}\\s*$` }) }),
    else: Type.Object({
      organization: OneOf(ORGANIZATIONS, {
        missing: 'Organization is required for this role.',
        enum: 'Organization must be hub or RC.',
      }),
      group: Text({ missing: 'Group is required for this role.' }),
    }),
  },
);
export type UserCreatePayload = Static<typeof UserCreatePayload>;

export const CreatedUser = Type.Object({
  message: Type.String(),
  id: Type.Integer(),
  username: Type.String(),
  role: RoleName,
});

export const UserListItem = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  role: RoleName,
  is_active: Type.Boolean(),
  group_info: Type.Array(Type.Object({ name: Type.String() }), { description: 'The group, if any.' }),
});
export type UserListItem = Static<typeof UserListItem>;

export const UserList = Type.Array(UserListItem);

export const UserId = Id('A valid user_id is required.');

/** The body of the users' actions: delete, deactivate, activate. */
export const UserAction = Type.Object({ user_id: UserId });

const NewPassword = Secret('A new password is required.');

export const ChangePassword = Type.Object({
  current_password: Secret('The current password is required.'),
  new_password: NewPassword,
});

export const ResetPassword = Type.Object({ user_id: UserId, new_password: NewPassword });

export const Group = Type.Object({ name: Type.String(), code: Type.String(), organization: Choice(ORGANIZATIONS) });
export type Group = Static<typeof Group>;

export const GroupList = Type.Array(Group);

export const CreateGroup = Type.Object({
  code: Text(
    { missing: 'Code is required.', pattern: 'Code may only contain letters, digits, "-" and "_" (at most 32).' },
    { pattern: '^[A-Za-z0-9_-]{1,32}$' },
  ),
  organization: OneOf(ORGANIZATIONS, { missing: 'Organization is required.', enum: 'Organization must be hub or RC.' }),
  name: Type.Optional(
    Type.Unknown({ description: 'The name shown for the group: non-blank text, else the code is shown.' }),
  ),
});
