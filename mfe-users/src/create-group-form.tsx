// The Create Group form (docs/screens.md#create-group-form, docs/errors.md#create-group; admin and
// super_admin only). The group's name is its code: the Name field mirrors the code as typed. It is
// checked against user/create_group/'s own schema (CreateGroup of @veritas/shared/domain) before
// it is sent, its faults shown under their fields as @veritas/shared/field-faults shows them, as is
// a refusal of the server that names a field.
import { BusyButton, httpStatus, refusedField, SearchSelect, type Group, type Organization } from '@veritas/shared';
import { CreateGroup } from '@veritas/shared/domain';
import { FormField, useFieldFaults } from '@veritas/shared/field-faults';
import { useState, type FormEvent } from 'react';
import { useCreateGroup } from './api/groups';
import { NoticeLine, useNotice } from './notice';
import { ORGANIZATION_OPTIONS } from './organizations';

export const GROUP_MESSAGES = {
  required: 'Code and organization are required',
  created: 'Group created successfully!',
  forbidden: 'You do not have permission to create a group.',
  failed: 'Failed to create group.',
} as const;

type Field = 'code' | 'name';
const FIELDS: readonly Field[] = ['code', 'name'];

/**
 * The notice of a failure (docs/errors.md#create-group): the spec's text for a 403, whatever the
 * server's body says (or without one), and its other text for any other failure.
 */
const failureText = (error: unknown) => (httpStatus(error) === 403 ? GROUP_MESSAGES.forbidden : GROUP_MESSAGES.failed);

/** A group created here is offered by the user form at once (api/groups.ts). */
export function CreateGroupForm() {
  const [code, setCode] = useState('');
  const [organization, setOrganization] = useState<Organization | null>(null);
  const createGroup = useCreateGroup();
  const { notice, show } = useNotice();
  const faults = useFieldFaults(FIELDS);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (createGroup.isPending) return;
    const trimmed = code.trim();
    if (!trimmed || !organization) {
      show('error', GROUP_MESSAGES.required);
      return;
    }
    const group: Group = { name: trimmed, code: trimmed, organization };
    if (!faults.check(CreateGroup, group)) return;
    try {
      await createGroup.mutateAsync(group);
      show('success', GROUP_MESSAGES.created);
      setCode('');
      setOrganization(null);
    } catch (error) {
      // A code or name the server refuses (taken, in any case) says why under its field.
      if (FIELDS.includes(refusedField(error) as Field)) faults.refused(error, GROUP_MESSAGES.failed);
      show('error', failureText(error));
    }
  }

  return (
    <form className="vx-card um-form" aria-label="Create Group" noValidate onSubmit={submit}>
      <h2 className="vx-card-title">Create Group</h2>
      <FormField
        faults={faults}
        field="code"
        label="Code"
        input={(wiring) => (
          <input
            {...wiring}
            className="vx-input"
            name="code"
            autoComplete="off"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        )}
      />
      <FormField
        faults={faults}
        field="name"
        label="Name"
        input={(wiring) => <input {...wiring} className="vx-input" name="name" readOnly value={code} />}
      />
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
