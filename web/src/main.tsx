// First: the message catalogues, before any module translates a text.
import './app/i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app/app.providers';
import { createAppRouter } from './app/app.router';
import { sessionStore } from './lib/session.store';
import { applyDocumentLanguage, loadLanguage } from './lib/i18n/i18n.store';
import { registerServiceWorker } from './offline/service-worker-registration';
import './index.css';

applyDocumentLanguage();
// Auto login: a stored token triggers a profile fetch before the guards decide anything.
void sessionStore.restore();
// The app shell offline, and playlists saved for offline listening (issue 30).
registerServiceWorker();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const render = () =>
  createRoot(root).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={createAppRouter()} />
      </AppProviders>
    </StrictMode>,
  );
// A Hebrew reader's catalogue is a chunk of its own: the first render waits for it.
void loadLanguage().then(render, (error: unknown) => {
  console.error('The language catalogue could not be loaded', error);
  render();
});
