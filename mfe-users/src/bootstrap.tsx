// Standalone start (`pnpm --filter mfe-users dev`): both pages, one under the other, inside the
// sign-in harness. In the console the shell loads ./CreateUser and ./DeactivateUsers instead.
import { StandaloneApp } from '@veritas/shared';
import { QueryProvider } from '@veritas/shared/query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import CreateUserPage from './create-user-page';
import DeactivateUsersPage from './deactivate-users-page';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StandaloneApp title="Users">
      <QueryProvider>
        <CreateUserPage />
        <hr className="vx-divider" />
        <DeactivateUsersPage />
      </QueryProvider>
    </StandaloneApp>
  </StrictMode>,
);
