import type { Group, Organization } from '@veritas/shared';

/** The two organizations a group belongs to, as the forms show them (docs/screens.md#create-user-form). */
export const ORGANIZATION_OPTIONS: readonly { value: Organization; label: string }[] = [
  { value: 'hub', label: 'HUB' },
  { value: 'RC', label: 'RC' },
];

/** Only the organizations some group belongs to: a user needs a group of theirs. */
export function organizationOptionsOf(groups: readonly Group[]) {
  return ORGANIZATION_OPTIONS.filter((option) => groups.some((group) => group.organization === option.value));
}

export function groupOptionsOf(groups: readonly Group[], organization: Organization | null) {
  return groups
    .filter((group) => group.organization === organization)
    .map((group) => ({ value: group.code, label: group.name }));
}
