import { BrowserRouter } from '../lib/routing';
import { AppProviders } from './providers';
import { AppRoutes, prefetchRoute } from './router';

/** The console: providers around the router. */
export function App() {
  return (
    <AppProviders>
      <BrowserRouter onLocation={prefetchRoute}>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
