import type { KubeConfigLike } from './kubeconfig';
import type { KubeObject } from './kube-object';
import { Informer } from './informer';
import type { InformerMetrics } from './metrics';
import type { InformerOptions } from './options';
import { type ResourceSpec, resourceKey } from './resource';

/**
 * One informer per (resource, namespace, selectors), shared by everyone who asks: 2,000 BFF
 * clients watching machines cost the API server one LIST and one WATCH, as 1 client does.
 * Informers start on first request and live until `stop()`; late subscribers get the cached
 * state replayed as `add` events (see `Informer.addEventHandler`).
 */
export class InformerFactory {
  #kc: KubeConfigLike;
  readonly #options: InformerOptions;
  readonly #informers = new Map<string, Informer>();
  #stopped = false;

  /**
   * `options` (knobs and hooks) apply to every informer this factory creates. Its informers
   * share one API server: when one of them connects again after failures (`onRecovered`), the
   * others still waiting out a backoff delay retry at once, instead of each waiting up to the
   * backoff cap (30 s) to find out that the server is back.
   */
  constructor(kc: KubeConfigLike, options: InformerOptions = {}) {
    this.#kc = kc;
    this.#options = {
      ...options,
      onRecovered: (info) => {
        options.onRecovered?.(info);
        for (const informer of this.#informers.values()) {
          if (informer.resource !== info.resource) informer.retryNow();
        }
      },
    };
  }

  /**
   * The shared, started informer for `spec`. `T` is the caller's claim about the objects' type;
   * callers sharing a spec must agree on it (the objects are the same).
   */
  informer<T extends KubeObject = KubeObject>(spec: ResourceSpec): Informer<T> {
    if (this.#stopped) throw new Error('InformerFactory is stopped');
    const key = resourceKey(spec);
    let informer = this.#informers.get(key);
    if (!informer) {
      informer = new Informer(this.#kc, spec, this.#options);
      this.#informers.set(key, informer);
      informer.start();
    }
    // One cache serves every caller; the type parameter only narrows what they read.
    return informer as unknown as Informer<T>;
  }

  /** Upstream informers (each one LIST+WATCH loop). */
  get size(): number {
    return this.#informers.size;
  }

  metrics(): InformerMetrics[] {
    return [...this.#informers.values()].map((informer) => informer.metrics());
  }

  /** Every informer retries at once, relisting if asked (see `Informer.retryNow`). */
  retryNow(options: { relist?: boolean } = {}): void {
    for (const informer of this.#informers.values()) informer.retryNow(options);
  }

  /** Every informer, and those created later, continue with `kc` (see `Informer.useKubeConfig`). */
  useKubeConfig(kc: KubeConfigLike): void {
    this.#kc = kc;
    for (const informer of this.#informers.values()) informer.useKubeConfig(kc);
  }

  /** Resolves when every informer created so far has synced. */
  async waitForSync(): Promise<void> {
    await Promise.all([...this.#informers.values()].map((informer) => informer.synced));
  }

  /** Stops every informer; no request or timer is left when it resolves. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all([...this.#informers.values()].map((informer) => informer.stop()));
  }
}
