import type { KubeClient } from '../kube/rest';

/**
 * Who a request acts for. Every read's authorization and every write goes through `client`,
 * which carries this user's own credential; the BFF's identity is never lent to a request in
 * token mode.
 */
export interface Principal {
  mode: 'local' | 'token' | 'oidc';
  /** How the credential arrived. */
  via: 'kubeconfig' | 'session' | 'proxy';
  username: string;
  groups: string[];
  /**
   * Local mode: the API server has not said who the kubeconfig's user is (it is unreachable);
   * `username` is then UNKNOWN_USER, never the kubeconfig's label (issue 25).
   */
  unconfirmed?: true;
  client: KubeClient;
  /** Identifies the credential in caches (a hash, never the token). */
  key: string;
  /** Epoch ms when the session ends (token mode). */
  expiresAt?: number;
  /** The session's id (token mode, signed-in): its streams end when it is signed out. */
  sessionId?: string;
  /** OIDC mode: the ID token's claims, and when the presented token expires (epoch ms). */
  oidc?: { claims: Record<string, unknown>; tokenExpiresAt: number };
}
