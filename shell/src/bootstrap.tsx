import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from '@veritas/shared';
import { App, startSignedInPageLoad } from './app';

if (window.location.pathname !== '/login') {
  await startSignedInPageLoad(window.location.pathname, window.location.search);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);
