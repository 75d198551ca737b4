// Standalone start (`pnpm --filter mfe-integrations dev`): the page inside the sign-in harness.
// In the console the shell loads ./IntegrationsPage instead (remote.json).
import { StandaloneApp } from '@veritas/shared';
import { QueryProvider } from '@veritas/shared/query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import IntegrationsPage, { TITLE } from './integrations-page';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StandaloneApp title={TITLE}>
      <QueryProvider>
        <IntegrationsPage />
      </QueryProvider>
    </StandaloneApp>
  </StrictMode>,
);
