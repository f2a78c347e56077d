import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { initialLocale } from './i18n/locale';
import { loadPack } from './i18n/packs';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const container = root;

// A language other than English is a chunk of its own: the first render waits for it rather
// than flash English (or raw keys). If it cannot load, the console starts in English.
loadPack(initialLocale())
  .catch(() => undefined)
  .finally(() => {
    createRoot(container).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
