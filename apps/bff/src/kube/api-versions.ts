import { chooseApiVersion, hubVersion, VERSIONED_GROUPS, type ApiVersionChoice } from '@dcs/domain';
import { KubeApiError } from './errors';
import type { KubeClient } from './rest';

/**
 * Which version of each Cluster API group the console speaks to the management cluster (issue
 * 23), learned from discovery (`GET /apis/{group}`) with the BFF's own identity, and learned again
 * every `recheckMs` and whenever a caller suspects a change (a watch answered 404: the version it
 * spoke is no longer served). Listeners hear of every change, so that the cache moves its watches
 * to the new version while the console keeps running: Cluster API upgraded from v1.10 to v1.14
 * starts serving v1beta2, and v1.16 stops serving v1beta1.
 *
 * Until discovery has answered, each group is spoken in the hub's version (what every Cluster API
 * release up to v1.15 serves); a group the server does not serve keeps its last choice, so that
 * the watches fail with the server's own words rather than a guess of ours.
 */

export interface ServedVersionsOptions {
  /** How often discovery is read again (default 30 s). */
  recheckMs?: number;
  /** A suspected change is checked at most this often (default 2 s). */
  minRecheckMs?: number;
  onError?: (error: unknown, group: string) => void;
}

export type VersionsListener = (choice: ApiVersionChoice, previous: ApiVersionChoice) => void;

export class ServedVersions {
  #choice: ApiVersionChoice;
  readonly #listeners = new Set<VersionsListener>();
  readonly #recheckMs: number;
  readonly #minRecheckMs: number;
  readonly #onError: ServedVersionsOptions['onError'];
  #timer: NodeJS.Timeout | undefined;
  #soon: NodeJS.Timeout | undefined;
  #reading: Promise<void> | undefined;
  #lastReadAt = -Infinity;
  #stopped = false;

  constructor(
    private readonly client: KubeClient,
    options: ServedVersionsOptions = {},
  ) {
    this.#recheckMs = options.recheckMs ?? 30_000;
    this.#minRecheckMs = options.minRecheckMs ?? 2_000;
    this.#onError = options.onError;
    const initial: Record<string, string> = {};
    for (const group of VERSIONED_GROUPS) {
      const v = hubVersion(group);
      if (v !== undefined) initial[group] = v;
    }
    this.#choice = initial;
  }

  /** group → version, as chosen now. */
  get choice(): ApiVersionChoice {
    return this.#choice;
  }

  /** Reads discovery now (once at a time), then every `recheckMs`. */
  async start(): Promise<void> {
    await this.refresh();
    if (this.#stopped || this.#timer) return;
    this.#timer = setInterval(() => void this.refresh(), this.#recheckMs);
    this.#timer.unref();
  }

  /** Reads discovery again soon: a caller saw a sign that the served versions changed. */
  recheckSoon(): void {
    if (this.#stopped || this.#soon) return;
    const wait = Math.max(0, this.#lastReadAt + this.#minRecheckMs - Date.now());
    this.#soon = setTimeout(() => {
      this.#soon = undefined;
      void this.refresh();
    }, wait);
    this.#soon.unref();
  }

  /** Reads every group's discovery document and applies the choice; never throws. */
  refresh(): Promise<void> {
    this.#reading ??= this.#read().finally(() => {
      this.#reading = undefined;
    });
    return this.#reading;
  }

  onChange(listener: VersionsListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
    clearTimeout(this.#soon);
    this.#listeners.clear();
  }

  async #read(): Promise<void> {
    this.#lastReadAt = Date.now();
    const next: Record<string, string> = { ...this.#choice };
    await Promise.all(
      VERSIONED_GROUPS.map(async (group) => {
        try {
          const served = await servedVersionsOf(this.client, group);
          const chosen = served && chooseApiVersion(group, served);
          if (chosen) next[group] = chosen;
        } catch (error) {
          this.#onError?.(error, group);
        }
      }),
    );
    if (this.#stopped) return;
    const previous = this.#choice;
    if (VERSIONED_GROUPS.every((g) => previous[g] === next[g])) return;
    this.#choice = next;
    for (const listener of this.#listeners) listener(next, previous);
  }
}

/** The versions a group serves (`APIGroup.versions`), or `undefined` when it is not served. */
export async function servedVersionsOf(
  client: KubeClient,
  group: string,
): Promise<string[] | undefined> {
  try {
    const res = await client.request('GET', `/apis/${group}`, { timeoutMs: 10_000 });
    const versions = (res.body as { versions?: unknown } | undefined)?.versions;
    if (!Array.isArray(versions)) return [];
    return versions
      .map((v) => (v as { version?: unknown } | null)?.version)
      .filter((v): v is string => typeof v === 'string');
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) return undefined;
    throw error;
  }
}
