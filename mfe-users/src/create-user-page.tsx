// Create User and Create Group (route createuser, docs/screens.md#create-user-and-create-group), side by side. The page owns the one
// group list both forms use, so a group created here is offered by the user form at once.
// Default export: the shell's page.
import {
  canCreateGroup,
  getList,
  serverMessage,
  useLiveEvents,
  useResource,
  useSession,
  type Group,
} from '@veritas/shared';
import { CreateGroupForm } from './create-group-form';
import { CreateUserForm } from './create-user-form';
import { NoticeLine, useNotice } from './notice';
import './users.css';

const NO_GROUPS: Group[] = [];

export default function CreateUserPage() {
  const role = useSession((state) => state.role);
  const { notice, show } = useNotice();
  const {
    data: groups = NO_GROUPS,
    loading,
    reload,
    setData,
  } = useResource('user/get_groups/', getList<Group>, {
    onError: (error) => show('error', serverMessage(error) ?? 'Failed to fetch groups.'),
  });
  // A group created here, or elsewhere (docs/screens.md#live-updates), once: the live event of one's
  // own group follows its form's answer.
  const addGroup = (group: Group) =>
    setData((current = []) => (current.some((known) => known.code === group.code) ? current : [...current, group]));
  useLiveEvents('groups', (message) => {
    if (message.type === 'reset') return void reload();
    const { name, code, organization } = message.data;
    addGroup({ name, code, organization });
  });

  return (
    <section className="vx-page">
      <NoticeLine notice={notice} />
      <div className="um-forms">
        <CreateUserForm creatorRole={role} groups={groups} groupsLoading={loading} />
        {canCreateGroup(role) && <CreateGroupForm onCreated={addGroup} />}
      </div>
    </section>
  );
}
