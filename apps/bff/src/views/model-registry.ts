import {
  CONTROL_PLANE_POOL_ID,
  LABEL_CLUSTER_NAME,
  LABEL_CONTROL_PLANE,
  LABEL_DEPLOYMENT_NAME,
  healthChecksOfPool,
} from '@dcs/domain';
import type { CacheChange, ObjectCache } from '../cache/object-cache';
import type { Cached } from '../cache/watched-kinds';
import { ClusterModel, type ModelOptions, type ViewChange } from './cluster-model';

/**
 * One ClusterModel per cluster, created on first use and kept current: every cache change is
 * turned into dirty marks on the models it affects (cheap), and listeners (the stream hub) are
 * told which models became dirty so that they refresh them when someone is watching.
 */

export type DirtyListener = (model: ClusterModel) => void;
export type ChangesListener = (model: ClusterModel, changes: readonly ViewChange[]) => void;

const keyOf = (namespace: string, name: string) => `${namespace}/${name}`;

function poolOfMachine(m: Cached<'Machine'>): string | undefined {
  const labels = m.metadata.labels ?? {};
  if (LABEL_CONTROL_PLANE in labels) return CONTROL_PLANE_POOL_ID;
  return labels[LABEL_DEPLOYMENT_NAME];
}

const clusterOfMachine = (m: Cached<'Machine'>) =>
  m.spec?.clusterName ?? m.metadata.labels?.[LABEL_CLUSTER_NAME];

export class ModelRegistry {
  readonly #cache: ObjectCache;
  readonly #options: ModelOptions;
  readonly #models = new Map<string, ClusterModel>();
  readonly #listeners = new Set<DirtyListener>();
  readonly #changeListeners = new Set<ChangesListener>();
  readonly #unsubscribe: () => void;

  constructor(cache: ObjectCache, options: ModelOptions) {
    this.#cache = cache;
    this.#options = options;
    this.#unsubscribe = cache.subscribe((c) => {
      this.#onChange(c);
    });
  }

  close(): void {
    this.#unsubscribe();
  }

  get size(): number {
    return this.#models.size;
  }

  /**
   * Brings a model up to date. Every refresh goes through here, whoever asks (a REST read or the
   * stream), so that the changes it finds always reach the stream: a read never swallows them.
   */
  refresh(model: ClusterModel): ClusterModel {
    const changes = model.refresh();
    if (changes.length) for (const l of this.#changeListeners) l(model, changes);
    return model;
  }

  /** The current model of a cluster (created on first use). */
  current(namespace: string, name: string): ClusterModel {
    return this.refresh(this.get(namespace, name));
  }

  onChanges(listener: ChangesListener): () => void {
    this.#changeListeners.add(listener);
    return () => {
      this.#changeListeners.delete(listener);
    };
  }

  /** The model of a cluster, as it is (see `current`); created on first use. */
  get(namespace: string, name: string): ClusterModel {
    const key = keyOf(namespace, name);
    let model = this.#models.get(key);
    if (!model) {
      model = new ClusterModel(this.#cache, namespace, name, this.#options);
      this.#models.set(key, model);
    }
    return model;
  }

  /** Every existing Cluster's model. */
  all(): ClusterModel[] {
    return this.#cache.stores.Cluster.list().map((c) =>
      this.get(c.metadata.namespace ?? '', c.metadata.name ?? ''),
    );
  }

  onDirty(listener: DirtyListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #notify(model: ClusterModel | undefined): void {
    if (!model) return;
    for (const l of this.#listeners) l(model);
  }

  #inNamespace(ns: string): ClusterModel[] {
    return [...this.#models.values()].filter((m) => m.namespace === ns);
  }

  #onChange(change: CacheChange): void {
    const ns = change.object.metadata.namespace ?? '';
    switch (change.kind) {
      case 'Machine': {
        const machines = [change.object, change.old].filter(
          (m): m is Cached<'Machine'> => m !== undefined,
        );
        for (const m of machines) {
          const cluster = clusterOfMachine(m);
          const model = cluster !== undefined ? this.#models.get(keyOf(ns, cluster)) : undefined;
          if (!model) continue;
          const pool = poolOfMachine(m);
          if (pool === undefined) model.markAll();
          else model.markMachine(pool, m.metadata.name ?? '');
          this.#notify(model);
        }
        return;
      }
      case 'DCSMachine': {
        const dm = change.object as Cached<'DCSMachine'>;
        const name = dm.metadata.name ?? '';
        for (const m of this.#cache.stores.Machine.byIndex('infra', keyOf(ns, name))) {
          const cluster = clusterOfMachine(m);
          const model = cluster !== undefined ? this.#models.get(keyOf(ns, cluster)) : undefined;
          const pool = poolOfMachine(m);
          if (!model) continue;
          if (pool === undefined) model.markAll();
          else model.markMachine(pool, m.metadata.name ?? '');
          this.#notify(model);
        }
        // Its claim (status.networkConfig.ip) changes the usage of its IP pool.
        const pools = new Set(
          [dm, change.old as Cached<'DCSMachine'> | undefined].flatMap((d) => {
            const p = d?.spec?.ipHostPoolRef.name;
            return p === undefined ? [] : [p];
          }),
        );
        for (const model of this.#inNamespace(ns)) {
          for (const p of pools) {
            if (!model.showsIpPool(p)) continue;
            model.markIpPool(p);
            this.#notify(model);
          }
        }
        return;
      }
      case 'MachineSet': {
        const dep = change.object.metadata.labels?.[LABEL_DEPLOYMENT_NAME];
        const md =
          dep !== undefined ? this.#cache.stores.MachineDeployment.get(ns, dep) : undefined;
        const cluster = md?.spec?.clusterName;
        const model = cluster !== undefined ? this.#models.get(keyOf(ns, cluster)) : undefined;
        if (model && dep !== undefined) {
          model.markPool(dep);
          this.#notify(model);
          return;
        }
        break;
      }
      case 'MachineHealthCheck': {
        // The card's line of each pool whose machines it selects (before or after the change).
        const checks = [change.object, change.old].filter(
          (c): c is Cached<'MachineHealthCheck'> => c !== undefined,
        );
        for (const c of checks) {
          const cluster = c.spec?.clusterName;
          const model = cluster !== undefined ? this.#models.get(keyOf(ns, cluster)) : undefined;
          if (!model || cluster === undefined) continue;
          for (const md of this.#cache.stores.MachineDeployment.byIndex(
            'cluster',
            keyOf(ns, cluster),
          ))
            if (healthChecksOfPool(md, [c]).length > 0) model.markPool(md.metadata.name ?? '');
          this.#notify(model);
        }
        return;
      }
      case 'KubeadmConfig':
      case 'DCSCluster':
        // No view is built from them (the object tree reads them when asked): nothing to rebuild.
        return;
      case 'ConfigMap':
      case 'Deployment':
        for (const model of this.#models.values()) {
          model.markAll();
          this.#notify(model);
        }
        return;
      default:
        break;
    }
    for (const model of this.#inNamespace(ns)) {
      model.markAll();
      this.#notify(model);
    }
  }
}
