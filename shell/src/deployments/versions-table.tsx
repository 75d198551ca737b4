// The versions the registry keeps of one remote (docs/screens.md#deployments), each with its
// status and the actions that make it live or a canary.
import { formatDateTime, type RemoteDeployment, type RemoteVersion } from '@veritas/shared';
import { DataTable, type Column } from '@veritas/shared/table';
import { v } from './rollout-requests';

export interface VersionsTableProps {
  remote: string;
  deployment: RemoteDeployment;
  onPromote(version: number): void;
  onStartCanary(version: number): void;
}

export function VersionsTable({ remote, deployment, onPromote, onStartCanary }: VersionsTableProps) {
  const { live, canary, versions } = deployment;
  const columns: Column<RemoteVersion>[] = [
    { header: 'Version', cell: (version) => v(version.version), rowHeader: true },
    {
      header: 'Published',
      cell: (version) => (
        <>
          {version.publishedBy}, {formatDateTime(version.publishedAt)}
          <span className="dp-source">
            {version.source === 'external' ? `from ${version.manifestUrl}` : 'stored by the registry'}
          </span>
        </>
      ),
    },
    { header: 'Note', cell: (version) => version.note ?? '—' },
    {
      header: 'Status',
      cell: (version) =>
        version.version === live ? 'Live' : version.version === canary?.version ? `Canary, ${canary.percent}%` : '—',
    },
    {
      header: 'Actions',
      cell: (version) => (
        <div className="dp-row-actions">
          <button
            type="button"
            className="vx-btn dp-action"
            disabled={version.version === live}
            aria-label={`Promote ${remote} ${v(version.version)}`}
            onClick={() => onPromote(version.version)}
          >
            Promote
          </button>
          <button
            type="button"
            className="vx-btn dp-action"
            disabled={version.version === live}
            aria-label={`Start canary of ${remote} ${v(version.version)}`}
            onClick={() => onStartCanary(version.version)}
          >
            Start canary
          </button>
        </div>
      ),
    },
  ];
  return (
    <DataTable
      caption={`${remote}: versions kept`}
      captionClassName="dp-caption"
      className="vx-table"
      columns={columns}
      rows={versions}
      rowKey={(version) => version.version}
      rowAttributes={(version) => ({ 'data-version': version.version })}
      empty="No versions kept"
    />
  );
}
