/**
 * The one module that reads the build's environment. Everything else imports `env`.
 * The SPA is served by the BFF on the same origin, so the API lives under `/api/v1`; in
 * development Vite proxies `/api` to the BFF (vite.config.ts).
 */
const raw = import.meta.env;

export const env = {
  /** Where the BFF's REST routes are. */
  apiBase: '/api/v1',
  /** Development build: extra diagnostics in the console. */
  dev: raw.DEV,
  /** How long after the last stream event the freshness indicator counts as stale. */
  staleAfterMs: 30_000,
} as const;
