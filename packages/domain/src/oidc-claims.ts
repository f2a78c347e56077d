/**
 * Issue 27: how an API server maps an OpenID Connect token's claims to a Kubernetes user, as
 * kube-apiserver's `--oidc-username-claim`, `--oidc-username-prefix`, `--oidc-groups-claim` and
 * `--oidc-groups-prefix` do. The console shows the mapping on the user menu, next to the identity
 * the API server confirmed; the embedded API server applies the same rules to authenticate.
 */
export interface ClaimsMapping {
  issuer: string;
  /** Default `sub`. */
  usernameClaim: string;
  /** Unset: `<issuer>#` for every claim but `email`; `-`: none. */
  usernamePrefix?: string | undefined;
  groupsClaim?: string | undefined;
  groupsPrefix?: string | undefined;
}

/** The prefix kube-apiserver puts before the username claim's value. */
export function usernamePrefixFor(m: ClaimsMapping): string {
  if (m.usernamePrefix === '-') return '';
  if (m.usernamePrefix !== undefined) return m.usernamePrefix;
  return m.usernameClaim === 'email' ? '' : `${m.issuer}#`;
}

export interface MappedClaims {
  /** The username claim's value (undefined: missing or not a string). */
  usernameClaimValue: string | undefined;
  /** The groups claim's values (a string counts as one group). */
  groupsClaimValues: string[];
  /** What the API server will call the user, if it maps claims as configured. */
  username: string | undefined;
  groups: string[];
}

const own = (o: Record<string, unknown>, k: string): unknown =>
  Object.hasOwn(o, k) ? o[k] : undefined;

export function mapClaims(claims: Record<string, unknown>, m: ClaimsMapping): MappedClaims {
  const value = own(claims, m.usernameClaim);
  const name = typeof value === 'string' && value !== '' ? value : undefined;
  const raw = m.groupsClaim !== undefined ? own(claims, m.groupsClaim) : undefined;
  const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : [];
  const groups = list.filter((g): g is string => typeof g === 'string');
  return {
    usernameClaimValue: name,
    groupsClaimValues: groups,
    username: name === undefined ? undefined : `${usernamePrefixFor(m)}${name}`,
    groups: groups.map((g) => `${m.groupsPrefix ?? ''}${g}`),
  };
}
