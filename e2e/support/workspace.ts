// The workspace's remotes as its tooling finds them (scripts/workspace-remotes.cjs): the folders
// mfe-* with a remote.json, and what each declares.
import path from 'node:path';
import type { RemoteDeclaration } from '@veritas/shared/domain';
import { repoRoot } from './server';

export interface WorkspaceRemote {
  name: string;
  /** Its folder's name, e.g. mfe-devices. */
  package: string;
  dir: string;
  /** What its build publishes: remote.json without the workspace's own fields. */
  declaration: RemoteDeclaration;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const tooling = require(path.join(repoRoot, 'scripts/workspace-remotes.cjs')) as {
  workspaceRemotes(): WorkspaceRemote[];
};

export const workspaceRemotes = (): WorkspaceRemote[] => tooling.workspaceRemotes();
