// The Create Group form (docs/screens.md#create-group-form, docs/errors.md#create-group; admin and
// super_admin only). The group's name is its code: the Name field mirrors the code as typed.
import { BusyButton, httpStatus, SearchSelect, type Group, type Organization } from '@veritas/shared';
import { useState, type FormEvent } from 'react';
import { useCreateGroup } from './api/groups';
import { NoticeLine, useNotice } from './notice';
import { ORGANIZATION_OPTIONS } from './organizations';
import { TextField } from './text-field';

export const GROUP_MESSAGES = {
  required: 'Code and organization are required',
  created: 'Group created successfully!',
  forbidden: 'You do not have permission to create a group.',
  failed: 'Failed to create group.',
} as const;

/** A group created here is offered by the user form at once (api/groups.ts). */
export function CreateGroupForm() {
  const [code, setCode] = useState('');
  const [organization, setOrganization] = useState<Organization | null>(null);
  const createGroup = useCreateGroup();
  const { notice, show } = useNotice();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (createGroup.isPending) return;
    const trimmed = code.trim();
    if (!trimmed || !organization) {
      show('error', GROUP_MESSAGES.required);
      return;
    }
    const group: Group = { name: trimmed, code: trimmed, organization };
    try {
      await createGroup.mutateAsync(group);
      show('success', GROUP_MESSAGES.created);
      setCode('');
      setOrganization(null);
    } catch (error) {
      show('error', httpStatus(error) === 403 ? GROUP_MESSAGES.forbidden : GROUP_MESSAGES.failed);
    }
  }

  return (
    <form className="vx-card um-form" aria-label="Create Group" noValidate onSubmit={submit}>
      <h2 className="vx-card-title">Create Group</h2>
      <TextField label="Code" name="code" autoComplete="off" value={code} onChange={(e) => setCode(e.target.value)} />
      <TextField label="Name" name="name" readOnly value={code} />
      <div className="vx-field">
        <SearchSelect
          label="Organization"
          placeholder="Select an organization..."
          options={ORGANIZATION_OPTIONS}
          value={organization}
          onChange={(value) => setOrganization(value as Organization | null)}
        />
      </div>
      <BusyButton type="submit" className="vx-btn vx-btn-primary" busy={createGroup.isPending}>
        Create Group
      </BusyButton>
      <NoticeLine notice={notice} />
    </form>
  );
}
