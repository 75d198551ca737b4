// The changes a remote's card offers (docs/screens.md#deployments), each as the confirmation it
// asks for: what will happen, in words that name the versions concerned.
import type { RemoteDeployment } from '@veritas/shared';
import type { ReactNode } from 'react';
import type { RolloutChange } from './api';

/** A version as the page writes it: v3, or — for none. */
export const v = (version: number | null) => (version === null ? '—' : `v${version}`);

/** A change waiting for its confirmation. */
export interface Pending {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  change: RolloutChange;
  /** Said once it is done (a canary: with the percentage chosen). */
  done(percent: number): string;
  /** A canary: its percentage is asked in the dialog. */
  asksPercent?: boolean;
}

/** The confirmations of the changes of one remote; null where the change has nothing to act on. */
export function rolloutRequests(remote: string, { live, canary, previous }: RemoteDeployment) {
  const nowLive = live === null ? 'Nothing from the registry is live now.' : `${v(live)} is live now.`;
  return {
    promote: (version: number): Pending => ({
      title: `Promote ${remote} v${version}`,
      message: `Make ${remote} v${version} live for everyone? ${nowLive}`,
      confirmLabel: 'Promote',
      change: { action: 'promote', remote, version },
      done: () => `${remote} v${version} is live.`,
    }),

    startCanary: (version: number): Pending => ({
      title: `Start a canary of ${remote} v${version}`,
      message: `Give ${remote} v${version} to a share of users? ${
        live === null ? 'The others keep what is live now.' : `The others keep ${v(live)}.`
      }${canary && canary.version !== version ? ` It replaces the canary of ${v(canary.version)}.` : ''}`,
      confirmLabel: 'Start canary',
      change: { action: 'canary', remote, version, percent: 0 },
      done: (share) => `${remote} v${version} is a canary for ${share}% of users.`,
      asksPercent: true,
    }),

    rollback: (): Pending | null =>
      previous === null
        ? null
        : {
            title: `Roll back ${remote}`,
            message: `Make ${remote} ${v(previous)} live again for everyone? ${nowLive}`,
            confirmLabel: 'Roll back',
            danger: true,
            change: { action: 'rollback', remote },
            done: () => `${remote} ${v(previous)} is live again.`,
          },

    stopCanary: (): Pending | null =>
      canary && {
        title: `Stop the canary of ${remote}`,
        message: `Stop the canary of ${remote} ${v(canary.version)}? Its ${canary.percent}% of users get ${
          live === null ? 'what is live' : v(live)
        } again.`,
        confirmLabel: 'Stop canary',
        danger: true,
        change: { action: 'stop-canary', remote },
        done: () => `The canary of ${remote} has stopped.`,
      },

    retire: (): Pending | null =>
      live === null
        ? null
        : {
            title: `Retire ${remote}`,
            message: `Take ${remote} out of the console? Its pages, menu entries and panels leave every console at its next navigation${
              canary ? `, its canary of ${v(canary.version)} stops,` : ''
            } and nothing of it is live until a version is promoted again. ${nowLive}`,
            confirmLabel: 'Retire',
            danger: true,
            change: { action: 'retire', remote },
            done: () => `${remote} is retired: nothing of it is live.`,
          },
  };
}
