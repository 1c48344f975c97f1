import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { AppProviders } from './AppProviders';
import { createQueryClient } from './lib/queryClient';
import { hydrateServerData } from './lib/serverData';
import { loadRoutesOf, routes } from './router';

const queryClient = createQueryClient();
const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

// A visitor's page comes rendered by the server with its data (server/http/web-routes.ts): it is
// hydrated. Every other page (signed-in screens, and any page the server did not render) starts empty.
const fromServer = hydrateServerData(queryClient);
// The page's own chunks first, so the router starts with them rather than with an empty screen.
await loadRoutesOf(window.location.pathname);
const app = (
  <AppProviders queryClient={queryClient}>
    <RouterProvider router={createBrowserRouter(routes)} />
  </AppProviders>
);
// Hydrating as a transition lets React yield to the browser between pieces of the page.
if (fromServer) startTransition(() => void hydrateRoot(root, app));
else createRoot(root).render(app);
// The service worker (installable app, offline shell) after the page, in a chunk of its own.
void import('./lib/pwa').then((m) => m.registerServiceWorker());
