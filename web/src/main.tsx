import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app/app.providers';
import { createAppRouter } from './app/app.router';
import { sessionStore } from './lib/session.store';
import { applyDocumentLanguage } from './lib/i18n/i18n.store';
import './index.css';

applyDocumentLanguage();
// Auto login: a stored token triggers a profile fetch before the guards decide anything.
void sessionStore.restore();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={createAppRouter()} />
    </AppProviders>
  </StrictMode>,
);
