// Create User and Create Group (route createuser, docs/screens.md#create-user-and-create-group), side by side. The page owns the one
// group list both forms use, so a group created here is offered by the user form at once.
// Default export: the shell's page.
import { canCreateGroup, groupsQuery, useLiveEvents, useSession, type Group } from '@veritas/shared';
import { refreshQueries, useQueryClient, useQueryError, useQueryNow } from '@veritas/shared/query';
import { addGroup } from './api/groups';
import { CreateGroupForm } from './create-group-form';
import { CreateUserForm } from './create-user-form';
import { NoticeLine, useNotice } from './notice';
import './users.css';

const NO_GROUPS: Group[] = [];

export default function CreateUserPage() {
  const role = useSession((state) => state.role);
  const { notice, show } = useNotice();
  const client = useQueryClient();
  const { data: groups = NO_GROUPS, isPending: loading, error } = useQueryNow(groupsQuery);
  // The spec's text, whatever the server said (docs/errors.md#create-group).
  useQueryError(error, () => show('error', 'Failed to fetch groups.'));
  // A group created elsewhere (docs/screens.md#live-updates) is offered at once.
  useLiveEvents('groups', (message) => {
    if (message.type === 'reset') return void refreshQueries(client, { queryKey: groupsQuery.queryKey });
    const { name, code, organization } = message.data;
    addGroup(client, { name, code, organization });
  });

  return (
    <section className="vx-page">
      {/* The page's title, as every page has one: the two forms' own titles are its sections'. */}
      <h1 className="vx-sr-only">Create User and Create Group</h1>
      <NoticeLine notice={notice} />
      <div className="um-forms">
        <CreateUserForm creatorRole={role} groups={groups} groupsLoading={loading} />
        {canCreateGroup(role) && <CreateGroupForm />}
      </div>
    </section>
  );
}
