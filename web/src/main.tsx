import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './app';
import { startApp } from './app/start';

const root = document.getElementById('root');
if (!root) throw new Error('No #root element in index.html');

const { router, queryClient, ready } = startApp();

// A transition: React renders the first page in slices, yielding to the browser between them,
// rather than in one long task; the static shell stays until it commits.
void ready.then(() =>
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <App router={router} queryClient={queryClient} />
      </StrictMode>,
    ),
  ),
);
