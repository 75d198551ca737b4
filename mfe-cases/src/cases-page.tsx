// The page /Cases of the remote 'cases': its route, who may open it and its menu entry are
// in remote.json (docs/architecture.md#adding-a-page-to-a-remote).
import { useId } from 'react';

/** The page's heading; remote.json's page title names it in the console's loading and error states. */
export const TITLE = 'Cases';

export default function CasesPage() {
  const headingId = useId();
  return (
    <section className="vx-page" aria-labelledby={headingId}>
      <h1 id={headingId} className="vx-page-title">
        {TITLE}
      </h1>
      <div className="vx-card">
        <p>A new page of the remote cases. What it shows is written in src/cases-page.tsx.</p>
      </div>
    </section>
  );
}
