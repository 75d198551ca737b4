// The Create User form's fields and their check (docs/screens.md#create-user-form): against
// user/create/'s own schema (UserCreatePayload of @veritas/shared/domain), so the form says what
// the server would (docs/errors.md#create-user), plus the password rule (the server's own too:
// the singleton leaves it out, see its index).
import type { Organization, Role } from '@veritas/shared';
import { formFaults, GROUPLESS_ROLE, passwordProblem, UserCreatePayload } from '@veritas/shared/domain';

// The form's own words; every other check is UserCreatePayload's, with its messages.
export const USER_MESSAGES = {
  required: 'Username and email are required',
  created: 'User created successfully!',
  failed: 'Failed to create user.',
} as const;

/** central_ops work across all hubs: they belong to no organization or group. */
export const needsGroup = (role: Role | null) => role !== GROUPLESS_ROLE;

export interface Fields {
  username: string;
  email: string;
  password: string;
  role: Role | null;
  organization: Organization | null;
  group: string | null;
}

export const EMPTY: Fields = { username: '', email: '', password: '', role: null, organization: null, group: null };

/** The first rule `fields` break, in the form's order, or the payload to send. */
export function validate(fields: Fields): { error: string } | { payload: UserCreatePayload } {
  const username = fields.username.trim();
  const email = fields.email.trim();
  if (!username || !email) return { error: USER_MESSAGES.required };
  const withGroup = needsGroup(fields.role);
  const payload = {
    username,
    email,
    password: fields.password,
    role: fields.role ?? '',
    group: withGroup ? (fields.group ?? '') : '',
    organization: withGroup ? (fields.organization ?? '') : '',
  };
  const faults = formFaults(UserCreatePayload, payload);
  // The password's strength comes after the fields above it and before the role.
  const aboveRole = ['username', 'email', 'password'].some((field) => faults.has(field));
  const weakness = aboveRole ? null : passwordProblem(fields.password, username);
  if (weakness) return { error: weakness };
  const [fault] = faults.values();
  if (fault) return { error: fault };
  // Checked: the role is one of ROLES.
  return { payload: payload as UserCreatePayload };
}
