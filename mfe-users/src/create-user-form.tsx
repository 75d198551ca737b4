// The Create User form (docs/screens.md#create-user-form): checks itself against user/create/'s own
// schema (UserCreatePayload of @veritas/shared/domain), so it says what the server would
// (docs/errors.md#create-user), and sends nothing until every shown field is filled and the
// password passes the password rule (the server's own too: the singleton leaves it out, see its index).
import {
  assignableRoles,
  roleLabel,
  SearchSelect,
  serverMessage,
  type Group,
  type Organization,
  type Role,
} from '@veritas/shared';
import { formFaults, GROUPLESS_ROLE, PASSWORD_RULE, passwordProblem, UserCreatePayload } from '@veritas/shared/domain';
import { useMemo, useState, type FormEvent } from 'react';
import { useCreateUser } from './api/users';
import { NoticeLine, useNotice } from './notice';
import { groupOptionsOf, organizationOptionsOf } from './organizations';
import { responseBodyText } from './response';
import { TextField } from './text-field';

// The form's own words; every other check is UserCreatePayload's, with its messages.
export const USER_MESSAGES = {
  required: 'Username and email are required',
  created: 'User created successfully!',
  failed: 'Failed to create user.',
} as const;

/** central_ops work across all hubs: they belong to no organization or group. */
const needsGroup = (role: Role | null) => role !== GROUPLESS_ROLE;

interface Fields {
  username: string;
  email: string;
  password: string;
  role: Role | null;
  organization: Organization | null;
  group: string | null;
}

const EMPTY: Fields = { username: '', email: '', password: '', role: null, organization: null, group: null };

/** The first rule `fields` break, in the form's order, or the payload to send. */
function validate(fields: Fields): { error: string } | { payload: UserCreatePayload } {
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

/** docs/errors.md#create-user: the server's detail, else its whole body, else the fallback. */
function failureMessage(error: unknown): string {
  return serverMessage(error, ['detail']) ?? responseBodyText(error) ?? USER_MESSAGES.failed;
}

export interface CreateUserFormProps {
  creatorRole: Role | null;
  groups: readonly Group[];
  groupsLoading: boolean;
}

export function CreateUserForm({ creatorRole, groups, groupsLoading }: CreateUserFormProps) {
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [showPassword, setShowPassword] = useState(false);
  const createUser = useCreateUser();
  const { notice, show } = useNotice();

  const roleOptions = useMemo(
    () => assignableRoles(creatorRole).map((role) => ({ value: role, label: roleLabel(role) })),
    [creatorRole],
  );
  const organizationOptions = useMemo(() => organizationOptionsOf(groups), [groups]);
  const groupOptions = useMemo(() => groupOptionsOf(groups, fields.organization), [groups, fields.organization]);

  const set = (changes: Partial<Fields>) => setFields((current) => ({ ...current, ...changes }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = validate(fields);
    if ('error' in checked) {
      show('error', checked.error);
      return;
    }
    try {
      await createUser.mutateAsync(checked.payload);
      show('success', USER_MESSAGES.created);
      setFields(EMPTY);
      setShowPassword(false);
    } catch (error) {
      show('error', failureMessage(error));
    }
  }

  return (
    <form className="vx-card um-form" aria-label="Create User" noValidate onSubmit={submit}>
      <h2 className="vx-card-title">Create User</h2>
      <TextField
        label="Username"
        name="username"
        autoComplete="off"
        value={fields.username}
        onChange={(e) => set({ username: e.target.value })}
      />
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="off"
        value={fields.email}
        onChange={(e) => set({ email: e.target.value })}
      />
      <TextField
        label="Password"
        name="password"
        type={showPassword ? 'text' : 'password'}
        autoComplete="new-password"
        hint={PASSWORD_RULE}
        value={fields.password}
        onChange={(e) => set({ password: e.target.value })}
        addon={(inputId) => (
          <button
            type="button"
            className="vx-btn"
            aria-label={showPassword ? 'Hide password' : 'Show password'}
            aria-controls={inputId}
            onClick={() => setShowPassword((shown) => !shown)}
          >
            {showPassword ? 'Hide' : 'Show'}
          </button>
        )}
      />
      <div className="vx-field">
        <SearchSelect
          label="Role"
          placeholder="Select a role..."
          options={roleOptions}
          value={fields.role}
          onChange={(role) => set({ role: role as Role | null })}
        />
      </div>
      {needsGroup(fields.role) && (
        <>
          <div className="vx-field">
            <SearchSelect
              label="Organization"
              placeholder="Select an organization..."
              options={organizationOptions}
              loading={groupsLoading}
              value={fields.organization}
              // A group belongs to one organization: the old choice no longer fits.
              onChange={(organization) => set({ organization: organization as Organization | null, group: null })}
            />
          </div>
          <div className="vx-field">
            <SearchSelect
              label="Group"
              placeholder="Select a group..."
              options={groupOptions}
              loading={groupsLoading}
              clearable
              value={fields.group}
              onChange={(group) => set({ group })}
            />
          </div>
        </>
      )}
      <button type="submit" className="vx-btn vx-btn-primary" disabled={createUser.isPending}>
        Create User
      </button>
      <NoticeLine notice={notice} />
    </form>
  );
}
