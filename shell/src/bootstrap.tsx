import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from '@veritas/shared';
import { App, preloadSignedInRoutes } from './app';
import { startSessionCheck } from './session-check';

// A signed-in page (a reload, a link) checks the sign-in while its routes load and renders with
// them at hand (app.tsx); a remote's page has its code on the way meanwhile.
if (window.location.pathname !== '/login') {
  startSessionCheck();
  (await preloadSignedInRoutes()).preloadPageAt(window.location.pathname, window.location.search);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);
