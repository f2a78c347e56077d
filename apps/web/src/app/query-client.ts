import { QueryClient } from '@tanstack/react-query';
import { retryReadDelay, shouldRetryRead } from '../lib/retry';

/**
 * The app's one query client, module-level so that route loaders can start a screen's fetches
 * while its code is still loading (no request waterfall behind lazy routes).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The stream keeps cluster data current; refetching on focus would only add load.
      refetchOnWindowFocus: false,
      staleTime: 30_000,
      retry: shouldRetryRead,
      retryDelay: retryReadDelay,
    },
  },
});
