// Standalone start (`pnpm --filter mfe-devices dev`): the page inside the sign-in harness.
// In the console the shell loads ./ListDevices instead and this file is not used.
import { StandaloneApp } from '@veritas/shared';
import { QueryProvider } from '@veritas/shared/query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import ListDevices from './list-devices';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StandaloneApp title="Devices">
      <QueryProvider>
        <ListDevices />
      </QueryProvider>
    </StandaloneApp>
  </StrictMode>,
);
