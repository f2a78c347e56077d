import { queryOptions, useQuery } from '@tanstack/react-query';
import { request, setCsrfToken } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Who the console acts as: the signed-in user (token mode) or the kubeconfig's user (local). */
export interface Session {
  authMode: 'local' | 'token';
  authenticated: boolean;
  user?: { name: string; groups: string[] };
  csrfToken?: string;
  /** When the session ends (token mode), RFC 3339. */
  expiresAt?: string;
}

interface SessionWire {
  authMode?: 'local' | 'token';
  mode?: 'local' | 'token';
  authenticated?: boolean;
  user?: { name?: string; username?: string; groups?: string[] } | string | null;
  username?: string;
  groups?: string[];
  csrfToken?: string;
  expiresAt?: string;
}

/** The BFF's session route; a 401 means "nobody is signed in", not an error. */
export function toSession(w: SessionWire | undefined): Session {
  const authMode = w?.authMode ?? w?.mode ?? 'token';
  const rawUser = w?.user;
  const name =
    typeof rawUser === 'string' ? rawUser : (rawUser?.name ?? rawUser?.username ?? w?.username);
  const groups = (typeof rawUser === 'object' ? rawUser?.groups : undefined) ?? w?.groups ?? [];
  const authenticated = w?.authenticated ?? name !== undefined;
  return {
    authMode,
    authenticated,
    ...(name !== undefined ? { user: { name, groups } } : {}),
    ...(w?.csrfToken ? { csrfToken: w.csrfToken } : {}),
    ...(w?.expiresAt ? { expiresAt: w.expiresAt } : {}),
  };
}

export async function getSession(signal?: AbortSignal): Promise<Session> {
  try {
    const session = toSession(await request<SessionWire>('/session', { signal }));
    setCsrfToken(session.csrfToken);
    return session;
  } catch (e) {
    if (e instanceof Error && 'status' in e && e.status === 401) {
      setCsrfToken(undefined);
      return { authMode: 'token', authenticated: false };
    }
    throw e;
  }
}

export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.session,
    queryFn: ({ signal }) => getSession(signal),
    staleTime: 60_000,
  });

export const useSession = () => useQuery(sessionQueryOptions());
