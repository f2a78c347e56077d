import type {
  ObjectSource,
  SourceFactory,
  SourceHandlers,
  WatchSpec,
} from '../../src/cache/source';

/**
 * A set of in-memory list+watch sources for unit tests: objects are routed to the source whose
 * spec matches their plural (and namespace), handlers see the same add/update/delete calls a
 * real informer makes.
 */

interface Obj {
  kind?: string;
  metadata: {
    name?: string;
    namespace?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
  };
}

const PLURAL: Record<string, string> = {
  Cluster: 'clusters',
  KubeadmControlPlane: 'kubeadmcontrolplanes',
  MachineDeployment: 'machinedeployments',
  MachineSet: 'machinesets',
  Machine: 'machines',
  DCSMachine: 'dcsmachines',
  DCSMachineTemplate: 'dcsmachinetemplates',
  KubeadmConfigTemplate: 'kubeadmconfigtemplates',
  DCSIpHostnamePool: 'dcsiphostnamepools',
  KubeadmConfig: 'kubeadmconfigs',
  DCSCluster: 'dcsclusters',
  MachineHealthCheck: 'machinehealthchecks',
  ConfigMap: 'configmaps',
  Deployment: 'deployments',
};

class FakeSource implements ObjectSource {
  readonly resource: string;
  readonly items = new Map<string, Obj>();
  readonly #handlers = new Set<SourceHandlers>();
  started = false;
  stopped = false;
  /** Set by a test to play an outage of this watch: when its failures began, and why. */
  failing: { since: number; error: string } | undefined;
  constructor(readonly spec: WatchSpec) {
    this.resource = `${spec.plural} ${spec.namespace ?? ''}`;
  }
  start(): void {
    this.started = true;
    for (const o of this.items.values()) for (const h of this.#handlers) h.add?.(o);
  }
  stop(): Promise<void> {
    this.stopped = true;
    return Promise.resolve();
  }
  hasSynced(): boolean {
    return this.started;
  }
  addHandlers(handlers: SourceHandlers): () => void {
    this.#handlers.add(handlers);
    if (this.started) for (const o of this.items.values()) handlers.add?.(o);
    return () => this.#handlers.delete(handlers);
  }
  health() {
    return {
      resource: this.resource,
      hasSynced: this.started,
      objects: this.items.size,
      restarts: 0,
      relists: 0,
      errors: 0,
      staleRestarts: 0,
      lagMs: 0,
      failingSince: this.failing?.since ?? 0,
      lastError: this.failing?.error ?? '',
    };
  }
  put(o: Obj): void {
    const key = `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
    const old = this.items.get(key);
    this.items.set(key, o);
    if (!this.started) return;
    for (const h of this.#handlers) {
      if (old) h.update?.(o, old);
      else h.add?.(o);
    }
  }
  remove(o: Obj): void {
    const key = `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
    const old = this.items.get(key);
    if (!old) return;
    this.items.delete(key);
    if (this.started) for (const h of this.#handlers) h.delete?.(old, old);
  }
}

export class FakeCluster {
  readonly sources: FakeSource[] = [];
  #rv = 1000;
  /** Versions of the served API, as a test plays an upgrade: a source in another starts with what its kind holds. */
  readonly factory: SourceFactory = (spec) => {
    const s = new FakeSource(spec);
    const sibling = this.sources.find(
      (x) => !x.stopped && x.spec.plural === spec.plural && x.spec.namespace === spec.namespace,
    );
    for (const [key, o] of sibling?.items ?? []) s.items.set(key, o);
    this.sources.push(s);
    return s;
  };

  /** Every source of the object's kind: one, or two while the cache moves it to another version. */
  #sourcesFor(o: Obj): FakeSource[] {
    const plural = PLURAL[o.kind ?? ''];
    const found = this.sources.filter(
      (x) =>
        !x.stopped &&
        x.spec.plural === plural &&
        (x.spec.namespace === undefined || x.spec.namespace === o.metadata.namespace),
    );
    if (!found.length) throw new Error(`no source for ${o.kind ?? '?'}`);
    return found;
  }

  /** Adds or updates objects, giving each a fresh resourceVersion. */
  put(...objects: Obj[]): Obj[] {
    return objects.map((o) => {
      const stored = { ...o, metadata: { ...o.metadata, resourceVersion: String(++this.#rv) } };
      for (const source of this.#sourcesFor(stored)) source.put(stored);
      return stored;
    });
  }

  remove(...objects: Obj[]): void {
    for (const o of objects) for (const source of this.#sourcesFor(o)) source.remove(o);
  }
}
