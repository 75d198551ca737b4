// Deployments (route /Deployments, admin and super_admin; docs/screens.md#deployments): each
// remote's live version, canary and history, with promote, canary, rollback; for super_admin also
// deploy tokens and allowed origins. A page of the shell itself, in a chunk of its own: a broken
// remote can never lock out its own rollback.
// Default export: the page.
import {
  canManageDeployAccess,
  serverMessage,
  useComposition,
  useLiveEvents,
  useSession,
  type RemoteDeployment,
  type RemoteEntries,
} from '@veritas/shared';
import { refreshQueries, useQueryClient, useQueryError, useQueryNow } from '@veritas/shared/query';
import { useState } from 'react';
import { deploymentsQuery } from './api';
import { OriginsSection } from './origins-section';
import { RemoteRollout } from './remote-rollout';
import { TokensSection } from './tokens-section';
import './deployments.css';

const NO_DEPLOYMENTS: RemoteDeployment[] = [];
const NO_REMOTES: RemoteEntries = {};

export default function DeploymentsPage() {
  const role = useSession((state) => state.role);
  const client = useQueryClient();
  const { data: deployments = NO_DEPLOYMENTS, isPending: loading, error } = useQueryNow(deploymentsQuery);
  const [loadError, setLoadError] = useState<string | null>(null);
  useQueryError(error, (failure) => setLoadError(serverMessage(failure) ?? 'Failed to load the deployments'));
  // A rollout changed elsewhere (another admin, a pipeline), or events were missed: read them again.
  useLiveEvents('remotes', () => void refreshQueries(client, { queryKey: deploymentsQuery.queryKey }));

  // Every remote the console loads now, then any other the registry knows.
  const live = Object.keys(useComposition((s) => s.composition?.remotes) ?? NO_REMOTES);
  const names = [...live, ...deployments.map((d) => d.remote).filter((name) => !live.includes(name))];

  return (
    <section className="vx-page dp-page">
      <h1 className="vx-page-title">Deployments</h1>
      <p className="vx-muted dp-intro">
        Which version of each remote is live, its canary, and every change of its rollout. A change reaches each open
        console at its next page.
      </p>
      {loadError && (
        <p className="vx-notice vx-notice--error" role="alert">
          {loadError}
        </p>
      )}
      {loading ? (
        <p className="vx-loading" role="status">
          Loading deployments…
        </p>
      ) : (
        !error &&
        names.map((name) => (
          <RemoteRollout key={name} remote={name} deployment={deployments.find((d) => d.remote === name)} />
        ))
      )}
      {canManageDeployAccess(role) && (
        <>
          <TokensSection remotes={names} />
          <OriginsSection />
        </>
      )}
    </section>
  );
}
