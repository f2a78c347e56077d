import type { IncomingMessage } from 'node:http';
import type { TokenEntry, UserInfo } from '../types';

export const ANONYMOUS: UserInfo = {
  username: 'system:anonymous',
  groups: ['system:unauthenticated'],
};

/** Bearer tokens from a table; `undefined` means the request carries no usable credential. */
export class Authenticator {
  private readonly tokens = new Map<string, UserInfo>();

  constructor(
    tokens: readonly TokenEntry[],
    private readonly anonymous: boolean,
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
  authenticate(req: IncomingMessage): UserInfo | undefined {
    const header = req.headers.authorization;
    if (header) {
      const m = /^Bearer\s+(.+)$/i.exec(header.trim());
      if (!m) return undefined;
      return this.tokens.get(m[1] ?? '');
    }
    return this.anonymous ? ANONYMOUS : undefined;
  }
}
