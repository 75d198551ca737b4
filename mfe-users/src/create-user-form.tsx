// The Create User form (docs/screens.md#create-user-form): sends nothing until every shown field
// is filled and passes its check (see create-user-fields), then says how the server answered.
import {
  assignableRoles,
  BusyButton,
  roleLabel,
  SearchSelect,
  serverMessage,
  type Group,
  type Organization,
  type Role,
} from '@veritas/shared';
import { useMemo, useState, type FormEvent } from 'react';
import { useCreateUser } from './api/users';
import { EMPTY, needsGroup, USER_MESSAGES, validate, type Fields } from './create-user-fields';
import { NoticeLine, useNotice } from './notice';
import { groupOptionsOf, organizationOptionsOf } from './organizations';
import { PasswordField } from './password-field';
import { responseBodyText } from './response';
import { TextField } from './text-field';

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
    if (createUser.isPending) return;
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
    } finally {
      // The form holds what may be sent again; the mutation keeps no copy of the password.
      createUser.reset();
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
      <PasswordField
        value={fields.password}
        onChange={(password) => set({ password })}
        shown={showPassword}
        onToggle={() => setShowPassword((shown) => !shown)}
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
      <BusyButton type="submit" className="vx-btn vx-btn-primary" busy={createUser.isPending}>
        Create User
      </BusyButton>
      <NoticeLine notice={notice} />
    </form>
  );
}
