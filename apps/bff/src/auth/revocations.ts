/**
 * Revoked sessions, shared by every replica through one ConfigMap of the management cluster.
 *
 * A session lives in an encrypted cookie, so a replica cannot end it by forgetting it: sign-out
 * records the session's id, with the moment the session would have ended anyway, in the ConfigMap
 * `dcs-console-bff-revocations`. Every replica watches that one object (one narrow watch) and
 * refuses the recorded sessions. The list is bounded: an entry is dropped once its session has
 * expired (the cookie is dead by then anyway), which every write does for the entries it finds.
 */

export const REVOCATIONS_NAME = 'dcs-console-bff-revocations';

/** ~40 bytes an entry: 10,000 stay far below the API server's ~1 MiB object limit. */
export const MAX_REVOCATIONS = 10_000;

/** Session ids are 22 base64url characters: valid ConfigMap keys, nothing else is read. */
const SID = /^[A-Za-z0-9_-]{16,64}$/;

export interface RevocationPatch {
  data: Record<string, string | null>;
}

export class RevocationList {
  /** sid → end of the session (epoch ms), as the ConfigMap says. */
  #watched = new Map<string, number>();
  /** Revocations this replica wrote, until its watch shows them (or they expire). */
  readonly #local = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * The ConfigMap's data as last seen (undefined: it does not exist). Returns the sessions it
   * revokes that this replica did not know revoked before: their open streams must end now
   * (issue 10), not when they next reconnect.
   */
  apply(data: Readonly<Record<string, unknown>> | undefined): string[] {
    const next = new Map<string, number>();
    for (const [sid, value] of Object.entries(data ?? {})) {
      const exp = typeof value === 'string' ? Number(value) : NaN;
      if (SID.test(sid) && Number.isFinite(exp)) next.set(sid, exp);
    }
    const now = this.#now();
    const revoked: string[] = [];
    for (const [sid, exp] of next) {
      if (exp > now && !this.has(sid)) revoked.push(sid);
    }
    this.#watched = next;
    for (const sid of next.keys()) this.#local.delete(sid);
    return revoked;
  }

  add(sid: string, exp: number): void {
    this.#local.set(sid, exp);
  }

  has(sid: string): boolean {
    const now = this.#now();
    return (this.#watched.get(sid) ?? 0) > now || (this.#local.get(sid) ?? 0) > now;
  }

  /** Live entries (not yet expired). */
  get size(): number {
    const now = this.#now();
    let n = 0;
    for (const exp of this.#watched.values()) if (exp > now) n++;
    for (const [sid, exp] of this.#local) if (exp > now && !this.#watched.has(sid)) n++;
    return n;
  }

  /**
   * A JSON merge patch that records `sid` and drops every expired entry (merge patches set and
   * remove single keys, so concurrent sign-outs on several replicas never conflict), or `full`.
   */
  patchFor(sid: string, exp: number): RevocationPatch | 'full' {
    if (!SID.test(sid)) throw new Error('not a session id');
    const now = this.#now();
    const data: Record<string, string | null> = {};
    for (const [old, oldExp] of this.#watched) if (oldExp <= now) data[old] = null;
    if (this.size >= MAX_REVOCATIONS) return 'full';
    data[sid] = String(exp);
    return { data };
  }
}
