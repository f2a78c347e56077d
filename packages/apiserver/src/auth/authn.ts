import type { IncomingMessage } from 'node:http';
import type { TokenEntry, UserInfo } from '../types';
import type { OidcAuthenticator } from './oidc';

export const ANONYMOUS: UserInfo = {
  username: 'system:anonymous',
  groups: ['system:unauthenticated'],
};

/**
 * Bearer tokens from a table, then ID tokens of the trusted OpenID provider (auth/oidc.ts), as
 * kube-apiserver's union of authenticators; `undefined` means the request carries no usable
 * credential.
 */
export class Authenticator {
  private readonly tokens = new Map<string, UserInfo>();

  constructor(
    tokens: readonly TokenEntry[],
    private readonly anonymous: boolean,
    private readonly oidc?: OidcAuthenticator,
  ) {
    for (const t of tokens) this.add(t);
  }

  add(t: TokenEntry): void {
    const groups = [...(t.groups ?? [])];
    if (t.user.startsWith('system:serviceaccount:')) {
      const ns = t.user.split(':')[2] ?? '';
      groups.push('system:serviceaccounts', `system:serviceaccounts:${ns}`);
    }
    if (!groups.includes('system:authenticated')) groups.push('system:authenticated');
    const user: UserInfo = { username: t.user, groups };
    if (t.uid) user.uid = t.uid;
    this.tokens.set(t.token, user);
  }

  /** The user of a token, for TokenReview-like lookups. */
  lookup(token: string): UserInfo | undefined {
    return this.tokens.get(token);
  }

  /** A user, `undefined` for a bad or missing credential (401), or anonymous when allowed. */
  async authenticate(req: IncomingMessage): Promise<UserInfo | undefined> {
    const header = req.headers.authorization;
    if (header) {
      const m = /^Bearer\s+(.+)$/i.exec(header.trim());
      if (!m) return undefined;
      const token = m[1] ?? '';
      const user = this.tokens.get(token);
      if (user || !this.oidc?.claims(token)) return user;
      try {
        return await this.oidc.authenticate(token);
      } catch {
        // Bad signature, audience, expiry, claims, or the issuer unreachable: no credential.
        return undefined;
      }
    }
    return this.anonymous ? ANONYMOUS : undefined;
  }
}
