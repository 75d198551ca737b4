// Standalone start (`pnpm --filter mfe-dashboard dev`): the page inside the sign-in harness.
// In the console the shell loads ./Dashboard instead and this file is not used.
import { StandaloneApp } from '@veritas/shared';
import { QueryProvider } from '@veritas/shared/query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import Dashboard from './dashboard';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StandaloneApp title="Dashboard">
      <QueryProvider>
        <Dashboard />
      </QueryProvider>
    </StandaloneApp>
  </StrictMode>,
);
