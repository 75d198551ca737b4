// The one row of a Deployments table that has no rows to show yet: 'Loading …' or 'No …'.
import type { ReactNode } from 'react';

export function TableNotice({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={columns} className="vx-muted">
        {children}
      </td>
    </tr>
  );
}
