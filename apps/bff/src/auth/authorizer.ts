import { kindTable, type KindName, type Verb } from '@dcs/domain';
import { selfAccessReview } from '../kube/reviews';
import type { Principal } from './principal';

/**
 * Per-user authorization before cached data leaves the BFF: a SelfSubjectAccessReview asked with
 * the user's credential, cached for at most the configured TTL (≤ 60 s) per credential and
 * question, with concurrent identical questions sharing one request.
 */

export interface Check {
  verb: Verb;
  kind: KindName;
  namespace: string;
  name?: string;
}

export interface Denial extends Check {
  reason?: string;
}

interface Entry {
  at: number;
  answer: Promise<{ allowed: boolean; reason?: string }>;
}

const MAX_ENTRIES = 50_000;

export class Authorizer {
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  readonly #onReview: ((allowed: boolean) => void) | undefined;

  constructor(
    ttlMs: number,
    options: { now?: () => number; onReview?: (allowed: boolean) => void } = {},
  ) {
    this.#ttlMs = ttlMs;
    this.#now = options.now ?? Date.now;
    this.#onReview = options.onReview;
  }

  /** The checks this principal fails (empty = allowed). Errors of the review itself propagate. */
  async denied(principal: Principal, checks: readonly Check[]): Promise<Denial[]> {
    const answers = await Promise.all(checks.map((c) => this.#ask(principal, c)));
    return checks.flatMap((c, i) => {
      const a = answers[i];
      return a && !a.allowed ? [{ ...c, ...(a.reason ? { reason: a.reason } : {}) }] : [];
    });
  }

  async allowed(principal: Principal, check: Check): Promise<boolean> {
    return (await this.#ask(principal, check)).allowed;
  }

  #ask(principal: Principal, check: Check): Promise<{ allowed: boolean; reason?: string }> {
    const info = kindTable[check.kind];
    const key = `${principal.key}\n${check.verb}\n${info.group}\n${info.plural}\n${check.namespace}\n${check.name ?? ''}`;
    const now = this.#now();
    const hit = this.#entries.get(key);
    if (hit && now - hit.at < this.#ttlMs) return hit.answer;
    const answer = selfAccessReview(principal.client, {
      verb: check.verb,
      group: info.group,
      resource: info.plural,
      ...(info.scope === 'Namespaced' && check.namespace ? { namespace: check.namespace } : {}),
      ...(check.name !== undefined ? { name: check.name } : {}),
    }).then((a) => {
      this.#onReview?.(a.allowed);
      return a;
    });
    // A failed review is not remembered: the next request asks again.
    answer.catch(() => this.#entries.delete(key));
    if (this.#entries.size >= MAX_ENTRIES) this.#evict(now);
    this.#entries.set(key, { at: now, answer });
    return answer;
  }

  #evict(now: number): void {
    for (const [k, e] of this.#entries) if (now - e.at >= this.#ttlMs) this.#entries.delete(k);
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
  }
}
