// Standalone start (`pnpm --filter mfe-cases dev`): the page inside the sign-in harness.
// In the console the shell loads ./CasesPage instead (remote.json).
import { StandaloneApp } from '@veritas/shared';
import { QueryProvider } from '@veritas/shared/query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import CasesPage, { TITLE } from './cases-page';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StandaloneApp title={TITLE}>
      <QueryProvider>
        <CasesPage />
      </QueryProvider>
    </StandaloneApp>
  </StrictMode>,
);
