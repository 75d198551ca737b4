// Standalone start (`pnpm --filter mfe-audit dev`): the page inside the sign-in harness (which
// gives it a router: the filters live in the URL). In the console the shell loads ./AuditLog instead.
import { StandaloneApp } from '@veritas/shared';
import { QueryProvider } from '@veritas/shared/query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import AuditLogPage from './audit-log-page';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StandaloneApp title="Audit Log">
      <QueryProvider>
        <AuditLogPage />
      </QueryProvider>
    </StandaloneApp>
  </StrictMode>,
);
