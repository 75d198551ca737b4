// One remote on the Deployments page: what is live, its canary, the versions kept with their
// actions, and the history of its rollout (docs/screens.md#deployments).
import { formatDateTime, type RemoteDeployment, type RemoteVersion } from '@veritas/shared';
import { useId, useState } from 'react';
import { useFocusAfterChange } from './focus-after-change';
import { RolloutDialog } from './rollout-dialog';
import { RolloutHistory } from './rollout-history';
import { rolloutRequests, v, type Pending } from './rollout-requests';
import { VersionsTable } from './versions-table';

function Published({ version }: { version: RemoteVersion }) {
  return (
    <>
      published by {version.publishedBy} on {formatDateTime(version.publishedAt)}
    </>
  );
}

/** What is live and what is a canary. */
function RolloutSummary({ deployment: { live, canary, versions } }: { deployment: RemoteDeployment }) {
  const liveVersion = versions.find((item) => item.version === live);
  return (
    <dl className="dp-summary">
      <div>
        <dt>Live</dt>
        <dd>
          {liveVersion ? (
            <>
              <strong>{v(liveVersion.version)}</strong>, <Published version={liveVersion} />
              {liveVersion.note && <span className="dp-note">: {liveVersion.note}</span>}
            </>
          ) : live !== null ? (
            <strong>{v(live)}</strong>
          ) : (
            'Nothing from the registry'
          )}
        </dd>
      </div>
      <div>
        <dt>Canary</dt>
        <dd>
          {canary ? (
            <>
              <strong>{v(canary.version)}</strong> for {canary.percent}% of users
            </>
          ) : (
            'None'
          )}
        </dd>
      </div>
    </dl>
  );
}

export function RemoteRollout({ remote, deployment }: { remote: string; deployment: RemoteDeployment | undefined }) {
  const headingId = useId();
  const rollbackHintId = useId();
  const retireHintId = useId();
  const [pending, setPending] = useState<Pending | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { heading, changing } = useFocusAfterChange<HTMLHeadingElement>(deployment, pending !== null);

  if (!deployment) {
    return (
      <section className="vx-card dp-remote" aria-labelledby={headingId}>
        <h2 id={headingId} className="vx-card-title">
          {remote}
        </h2>
        <p className="vx-muted">No version of {remote} has been published to the registry.</p>
      </section>
    );
  }

  const { live, canary, previous, history } = deployment;
  const requests = rolloutRequests(remote, deployment);
  // Every card has these buttons: each is named for its remote, its visible text first (WCAG
  // 2.5.3, label in name).
  const rollback =
    previous === null
      ? { text: 'Rollback', name: `Rollback ${remote}` }
      : { text: `Roll back to ${v(previous)}`, name: `Roll back to ${v(previous)} of ${remote}` };

  function ask(next: Pending | null) {
    if (!next) return;
    setNotice(null);
    setPending(next);
  }

  return (
    <section className="vx-card dp-remote" aria-labelledby={headingId} data-remote={remote}>
      <h2 id={headingId} className="vx-card-title" ref={heading} tabIndex={-1}>
        {remote}
      </h2>
      <RolloutSummary deployment={deployment} />
      <div className="dp-actions">
        <button
          type="button"
          className="vx-btn"
          disabled={previous === null}
          aria-label={rollback.name}
          aria-describedby={rollbackHintId}
          onClick={() => ask(requests.rollback())}
        >
          {rollback.text}
        </button>
        <span id={rollbackHintId} className="vx-hint">
          {previous === null
            ? 'Nothing to roll back to: no earlier version was live.'
            : `Makes ${v(previous)} live again.`}
        </span>
        {canary && (
          <button
            type="button"
            className="vx-btn"
            aria-label={`Stop canary of ${remote}`}
            onClick={() => ask(requests.stopCanary())}
          >
            Stop canary
          </button>
        )}
        <button
          type="button"
          className="vx-btn"
          disabled={live === null}
          aria-label={`Retire ${remote}`}
          aria-describedby={live === null ? retireHintId : undefined}
          onClick={() => ask(requests.retire())}
        >
          Retire
        </button>
        {live === null && (
          <span id={retireHintId} className="vx-hint">
            Nothing of it is live to retire.
          </span>
        )}
      </div>
      {notice && (
        <p className="vx-notice vx-notice--success" role="status">
          {notice}
        </p>
      )}

      <VersionsTable
        remote={remote}
        deployment={deployment}
        onPromote={(version) => ask(requests.promote(version))}
        onStartCanary={(version) => ask(requests.startCanary(version))}
      />

      <RolloutHistory remote={remote} newest={history} />

      {pending && (
        <RolloutDialog
          pending={pending}
          live={live}
          canaryPercent={canary?.percent}
          onChanging={changing}
          onDone={setNotice}
          onClose={() => setPending(null)}
        />
      )}
    </section>
  );
}
