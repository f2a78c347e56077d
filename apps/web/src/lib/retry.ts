import { isApiError } from './api-client';

/**
 * When a failed read is asked again. A client fault (4xx) never is; a server fault (5xx) twice,
 * backing off. A 503 that says when to come back (Retry-After: the BFF's caches are still on their
 * first list after a start) is asked again at that pace for up to a minute, as a Kubernetes client
 * does with a starting API server: a console opened right after a restart waits, then shows the
 * data, instead of showing an error after two quick retries.
 */
export const RETRY_AFTER_BUDGET_MS = 60_000;
const SERVER_FAULT_RETRIES = 2;

export function shouldRetryRead(failures: number, error: unknown): boolean {
  if (isApiError(error) && error.retryAfterSeconds !== undefined) {
    return failures * Math.max(error.retryAfterSeconds, 1) * 1000 < RETRY_AFTER_BUDGET_MS;
  }
  return !(isApiError(error) && error.status < 500) && failures < SERVER_FAULT_RETRIES;
}

/** React Query's default back-off, or the server's Retry-After when it gave one. */
export function retryReadDelay(failures: number, error: unknown): number {
  if (isApiError(error) && error.retryAfterSeconds !== undefined) {
    return Math.max(error.retryAfterSeconds, 1) * 1000;
  }
  return Math.min(1000 * 2 ** failures, 30_000);
}
