// Standalone start (`pnpm --filter mfe-__name__ dev`): the page inside the sign-in harness.
// In the console the shell loads ./__Pascal__Page instead (remote.json).
import { StandaloneApp } from '@veritas/shared';
import { QueryProvider } from '@veritas/shared/query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import __Pascal__Page, { TITLE } from './__name__-page';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StandaloneApp title={TITLE}>
      <QueryProvider>
        <__Pascal__Page />
      </QueryProvider>
    </StandaloneApp>
  </StrictMode>,
);
