import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './app';
import { initI18n } from './lib/i18n';

void initI18n();

const root = document.getElementById('root');
if (!root) throw new Error('No #root element in index.html');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
