// Standalone start (`pnpm --filter mfe-whitelabel dev`): the page inside the sign-in harness.
// In the console the shell loads ./WhiteLabel instead.
import { StandaloneApp } from '@veritas/shared';
import { QueryProvider } from '@veritas/shared/query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import WhiteLabelPage from './white-label-page';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StandaloneApp title="White Label">
      <QueryProvider>
        <WhiteLabelPage />
      </QueryProvider>
    </StandaloneApp>
  </StrictMode>,
);
