import { queryOptions, useQuery } from '@tanstack/react-query';
import { request, setCsrfToken } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Who the console acts as: the signed-in user (token mode) or the kubeconfig's user (local). */
/** OIDC mode: the provider's claims and how the API server maps them (issue 27). */
export interface SsoClaims {
  issuer: string;
  subject: string;
  name?: string;
  email?: string;
  usernameClaim: string;
  usernameClaimValue?: string;
  usernamePrefix: string;
  groupsClaim?: string;
  groupsClaimValues: string[];
  groupsPrefix: string;
  /** When the presented token expires; the BFF refreshes it on a request before then. */
  tokenExpiresAt: string;
}

export interface Session {
  authMode: 'local' | 'token' | 'oidc';
  authenticated: boolean;
  /**
   * `confirmed`: the API server said who this is. False in local mode while it cannot be asked
   * (the name is then no name); the session is asked for again until it is true (issue 25).
   */
  user?: { name: string; groups: string[]; confirmed: boolean; sso?: SsoClaims };
  csrfToken?: string;
  /** When the session ends (token mode), RFC 3339. */
  expiresAt?: string;
}

interface SessionWire {
  authMode?: Session['authMode'];
  mode?: Session['authMode'];
  authenticated?: boolean;
  user?:
    | { name?: string; username?: string; groups?: string[]; confirmed?: boolean; sso?: SsoClaims }
    | string
    | null;
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
  const confirmed = (typeof rawUser === 'object' ? rawUser?.confirmed : undefined) !== false;
  const authenticated = w?.authenticated ?? name !== undefined;
  const sso = typeof rawUser === 'object' ? rawUser?.sso : undefined;
  return {
    authMode,
    authenticated,
    ...(name !== undefined ? { user: { name, groups, confirmed, ...(sso ? { sso } : {}) } } : {}),
    ...(w?.csrfToken ? { csrfToken: w.csrfToken } : {}),
    ...(w?.expiresAt ? { expiresAt: w.expiresAt } : {}),
  };
}

/** How often the session is asked for again while the API server has not said who the user is. */
export const UNCONFIRMED_REFETCH_MS = 5_000;

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

/** How long before the token expires the page asks for the session (which refreshes it). */
export const SSO_REFRESH_LEAD_MS = 30_000;

/**
 * OIDC mode: ask for the session shortly before the token expires, while the page is visible
 * (the user is there), so that the BFF refreshes it in time: no reload, the stream stays open.
 */
export function ssoRefetchMs(session: Session | undefined, now = Date.now()): number | false {
  const end = session?.user?.sso?.tokenExpiresAt;
  if (session?.authMode !== 'oidc' || end === undefined) return false;
  return Math.max(5_000, Date.parse(end) - now - SSO_REFRESH_LEAD_MS);
}

export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.session,
    queryFn: ({ signal }) => getSession(signal),
    staleTime: 60_000,
    // Who the user is is not known yet (local mode, the API server unreachable): ask again.
    refetchInterval: (query) =>
      query.state.data?.user?.confirmed === false
        ? UNCONFIRMED_REFETCH_MS
        : ssoRefetchMs(query.state.data),
  });

export const useSession = () => useQuery(sessionQueryOptions());
