// The page /__Pascal__ of the remote '__name__': its route, who may open it and its menu entry are
// in remote.json (docs/architecture.md#adding-a-page-to-a-remote).
import { useId } from 'react';

/** The page's heading; remote.json's page title names it in the console's loading and error states. */
export const TITLE = '__Title__';

export default function __Pascal__Page() {
  const headingId = useId();
  return (
    <section className="vx-page" aria-labelledby={headingId}>
      <h1 id={headingId} className="vx-page-title">
        {TITLE}
      </h1>
      <div className="vx-card">
        <p>A new page of the remote __name__. What it shows is written in src/__name__-page.tsx.</p>
      </div>
    </section>
  );
}
