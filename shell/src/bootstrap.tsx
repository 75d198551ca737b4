import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from '@veritas/shared';
import { App, preloadSignedInRoutes } from './app';

// A signed-in page (a reload, a link) renders with its routes at hand (app.tsx).
if (window.location.pathname !== '/login') await preloadSignedInRoutes();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);
