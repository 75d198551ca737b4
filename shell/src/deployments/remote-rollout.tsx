// One remote on the Deployments page: what is live, its canary, the versions kept with their
// actions, and the history of its rollout (docs/screens.md#deployments).
import { formatDateTime, toast, type RemoteDeployment, type RemoteVersion } from '@veritas/shared';
import { CANARY_SHARE_MESSAGE } from '@veritas/shared/domain';
import { useId, useState, type ReactNode } from 'react';
import { useRolloutChange, type RolloutChange as Change } from './api';
import { ConfirmDialog } from './confirm-dialog';
import { RolloutHistory } from './rollout-history';
import { TableNotice } from './table-notice';

const v = (version: number | null) => (version === null ? '—' : `v${version}`);

/** A dialog asking to confirm one change. */
interface Pending {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  /** The change and what to say once it is done. */
  change: Change;
  /** Said once it is done (a canary: with the percentage chosen). */
  done(percent: number): string;
  /** A canary: its percentage is asked in the dialog. */
  asksPercent?: boolean;
}

function Published({ version }: { version: RemoteVersion }) {
  return (
    <>
      published by {version.publishedBy} on {formatDateTime(version.publishedAt)}
    </>
  );
}

export function RemoteRollout({ remote, deployment }: { remote: string; deployment: RemoteDeployment | undefined }) {
  const headingId = useId();
  const rollbackHintId = useId();
  const retireHintId = useId();
  const percentId = useId();
  const percentHintId = useId();
  const rollout = useRolloutChange();
  const [pending, setPending] = useState<Pending | null>(null);
  const [percent, setPercent] = useState('10');
  const [notice, setNotice] = useState<string | null>(null);

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

  const { live, canary, previous, versions, history } = deployment;
  const liveVersion = versions.find((item) => item.version === live);
  const nowLive = live === null ? 'Nothing from the registry is live now.' : `${v(live)} is live now.`;

  function ask(next: Pending) {
    setNotice(null);
    if (next.asksPercent) setPercent(String(canary?.percent ?? 10));
    setPending(next);
  }

  const promote = (version: number) =>
    ask({
      title: `Promote ${remote} v${version}`,
      message: `Make ${remote} v${version} live for everyone? ${nowLive}`,
      confirmLabel: 'Promote',
      change: { action: 'promote', remote, version },
      done: () => `${remote} v${version} is live.`,
    });

  const startCanary = (version: number) =>
    ask({
      title: `Start a canary of ${remote} v${version}`,
      message: `Give ${remote} v${version} to a share of users? ${
        live === null ? 'The others keep what is live now.' : `The others keep ${v(live)}.`
      }${canary && canary.version !== version ? ` It replaces the canary of ${v(canary.version)}.` : ''}`,
      confirmLabel: 'Start canary',
      change: { action: 'canary', remote, version, percent: 0 },
      done: (share) => `${remote} v${version} is a canary for ${share}% of users.`,
      asksPercent: true,
    });

  const rollback = () =>
    previous !== null &&
    ask({
      title: `Roll back ${remote}`,
      message: `Make ${remote} ${v(previous)} live again for everyone? ${nowLive}`,
      confirmLabel: 'Roll back',
      danger: true,
      change: { action: 'rollback', remote },
      done: () => `${remote} ${v(previous)} is live again.`,
    });

  const stopCanary = () =>
    canary &&
    ask({
      title: `Stop the canary of ${remote}`,
      message: `Stop the canary of ${remote} ${v(canary.version)}? Its ${canary.percent}% of users get ${
        live === null ? 'what is live' : v(live)
      } again.`,
      confirmLabel: 'Stop canary',
      danger: true,
      change: { action: 'stop-canary', remote },
      done: () => `The canary of ${remote} has stopped.`,
    });

  const retire = () =>
    live !== null &&
    ask({
      title: `Retire ${remote}`,
      message: `Take ${remote} out of the console? Its pages, menu entries and panels leave every console at its next navigation${
        canary ? `, its canary of ${v(canary.version)} stops,` : ''
      } and nothing of it is live until a version is promoted again. ${nowLive}`,
      confirmLabel: 'Retire',
      danger: true,
      change: { action: 'retire', remote },
      done: () => `${remote} is retired: nothing of it is live.`,
    });

  const percentValue = Number(percent);
  const percentProblem =
    Number.isInteger(percentValue) && percentValue >= 1 && percentValue <= 99 ? null : CANARY_SHARE_MESSAGE;

  async function confirm(current: Pending) {
    const change: Change =
      current.change.action === 'canary' ? { ...current.change, percent: percentValue } : current.change;
    await rollout.mutateAsync(change);
    const done = current.done(percentValue);
    toast.success(done);
    setNotice(done);
  }

  return (
    <section className="vx-card dp-remote" aria-labelledby={headingId} data-remote={remote}>
      <h2 id={headingId} className="vx-card-title">
        {remote}
      </h2>
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
      <div className="dp-actions">
        <button
          type="button"
          className="vx-btn"
          disabled={previous === null}
          aria-describedby={rollbackHintId}
          onClick={rollback}
        >
          {previous === null ? 'Rollback' : `Roll back to ${v(previous)}`}
        </button>
        <span id={rollbackHintId} className="vx-hint">
          {previous === null
            ? 'Nothing to roll back to: no earlier version was live.'
            : `Makes ${v(previous)} live again.`}
        </span>
        {canary && (
          <button type="button" className="vx-btn" onClick={stopCanary}>
            Stop canary
          </button>
        )}
        <button
          type="button"
          className="vx-btn"
          disabled={live === null}
          aria-describedby={live === null ? retireHintId : undefined}
          onClick={retire}
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

      <div className="vx-table-wrap">
        <table className="vx-table dp-table">
          <caption className="dp-caption">{remote}: versions kept</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Published</th>
              <th scope="col">Note</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {versions.length === 0 ? (
              <TableNotice columns={5}>No versions kept</TableNotice>
            ) : (
              versions.map((version) => {
                const isLive = version.version === live;
                const isCanary = version.version === canary?.version;
                return (
                  <tr key={version.version} data-version={version.version}>
                    <th scope="row">{v(version.version)}</th>
                    <td>
                      {version.publishedBy}, {formatDateTime(version.publishedAt)}
                      <span className="dp-source">
                        {version.source === 'external' ? `from ${version.manifestUrl}` : 'stored by the registry'}
                      </span>
                    </td>
                    <td>{version.note ?? '—'}</td>
                    <td>{isLive ? 'Live' : isCanary ? `Canary, ${canary?.percent}%` : '—'}</td>
                    <td>
                      <div className="dp-row-actions">
                        <button
                          type="button"
                          className="vx-btn dp-action"
                          disabled={isLive}
                          aria-label={`Promote ${remote} ${v(version.version)}`}
                          onClick={() => promote(version.version)}
                        >
                          Promote
                        </button>
                        <button
                          type="button"
                          className="vx-btn dp-action"
                          disabled={isLive}
                          aria-label={`Start canary of ${remote} ${v(version.version)}`}
                          onClick={() => startCanary(version.version)}
                        >
                          Start canary
                        </button>
                      </div>
                    </td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>

      <RolloutHistory remote={remote} newest={history} />

      {pending && (
        <ConfirmDialog
          title={pending.title}
          message={pending.message}
          confirmLabel={pending.confirmLabel}
          danger={pending.danger}
          failedText="The change could not be made."
          validate={pending.asksPercent ? () => percentProblem : undefined}
          onConfirm={() => confirm(pending)}
          onClose={() => setPending(null)}
        >
          {pending.asksPercent && (
            <div className="vx-field">
              <label className="vx-label" htmlFor={percentId}>
                Share of users (%)
              </label>
              <input
                id={percentId}
                className="vx-input"
                type="number"
                inputMode="numeric"
                min={1}
                max={99}
                step={1}
                required
                data-autofocus
                aria-describedby={percentHintId}
                value={percent}
                onChange={(event) => setPercent(event.target.value)}
              />
              <p id={percentHintId} className="vx-hint">
                1 to 99 percent of users get this version; the rest keep {live === null ? 'what is live' : v(live)}.
              </p>
            </div>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}
