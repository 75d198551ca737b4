import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from '@veritas/shared';
import { App } from './app';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);
