// Create User and Create Group (route createuser, docs/screens.md#create-user-and-create-group), side by side. The page owns the one
// group list both forms use, so a group created here is offered by the user form at once.
// Default export: the shell's page.
import { canCreateGroup, listRequest, serverMessage, useSession, type Group } from '@veritas/shared';
import { useCallback, useEffect, useState } from 'react';
import { CreateGroupForm } from './CreateGroupForm';
import { CreateUserForm } from './CreateUserForm';
import { NoticeLine, useNotice, type Notice } from './notice';
import './users.css';

const requestGroups = listRequest<Group>('user/get_groups/');

/** The groups, fetched once per visit, starting with the first render (see listRequest). */
function useGroups(show: (kind: Notice['kind'], text: string) => void) {
  const [request] = useState(requestGroups);
  const [groups, setGroups] = useState<Group[]>([]);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    let active = true;
    request
      .then((data) => {
        if (active) setGroups(data);
      })
      .catch((error: unknown) => {
        if (active) show('error', serverMessage(error) ?? 'Failed to fetch groups.');
      })
      .finally(() => {
        if (active) setLoading(false);
      });
    return () => {
      active = false;
    };
  }, [request, show]);

  const addGroup = useCallback((group: Group) => setGroups((current) => [...current, group]), []);
  return { groups, loading, addGroup };
}

export default function CreateUserPage() {
  const role = useSession((state) => state.role);
  const { notice, show } = useNotice();
  const { groups, loading, addGroup } = useGroups(show);

  return (
    <section className="um-page">
      <NoticeLine notice={notice} />
      <div className="um-forms">
        <CreateUserForm creatorRole={role} groups={groups} groupsLoading={loading} />
        {canCreateGroup(role) && <CreateGroupForm onCreated={addGroup} />}
      </div>
    </section>
  );
}
