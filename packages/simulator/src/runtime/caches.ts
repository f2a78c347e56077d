import type { InformerFactory } from '@dcs/informer';
import {
  LABEL_CLUSTER_NAME,
  kindTable,
  type KindInfo,
  type ObjectOf,
  type OwnerReference,
} from '@dcs/domain';
import { Cache } from './cache';

/**
 * One cache per kind the controllers read, on the shared informers (one LIST+WATCH per kind for
 * all controllers), with the indexes they look things up by. Index values carry the namespace.
 */

export const WATCHED_KINDS = [
  'Cluster',
  'DCSCluster',
  'MachineDeployment',
  'MachineSet',
  'Machine',
  'MachineHealthCheck',
  'KubeadmControlPlane',
  'KubeadmConfigTemplate',
  'KubeadmConfig',
  'DCSMachineTemplate',
  'DCSMachine',
  'DCSIpHostnamePool',
] as const;
export type WatchedKind = (typeof WATCHED_KINDS)[number];

export const BY_OWNER = 'owner';
export const BY_CLUSTER = 'cluster';
export const BY_TEMPLATE = 'template';
export const BY_POOL = 'pool';

interface Meta {
  metadata: {
    namespace?: string | undefined;
    labels?: Record<string, string> | undefined;
    ownerReferences?: OwnerReference[] | undefined;
  };
}

const ns = (o: Meta) => o.metadata.namespace ?? '';
export const indexKey = (namespace: string | undefined, value: string) =>
  `${namespace ?? ''}/${value}`;

/** The uid of the object's controller (ownerReference with controller: true). */
export function controllerUid(o: Meta): string | undefined {
  return o.metadata.ownerReferences?.find((r) => r.controller)?.uid;
}

const byControllerOwner = (o: Meta) => {
  const uid = controllerUid(o);
  return uid ? [uid] : [];
};
const byClusterLabel = (o: Meta) => {
  const c = o.metadata.labels?.[LABEL_CLUSTER_NAME];
  return c ? [indexKey(ns(o), c)] : [];
};

export class Caches {
  private readonly caches = new Map<WatchedKind, Cache<never>>();

  constructor(
    private readonly factory: InformerFactory,
    private readonly namespace: string | undefined,
    /** The version each Cluster API kind is watched in (issue 23; the objects arrive as the hub). */
    private readonly at: (info: KindInfo) => KindInfo = (info) => info,
  ) {}

  get<K extends WatchedKind>(kind: K): Cache<ObjectOf<K>> {
    const existing = this.caches.get(kind) as Cache<ObjectOf<K>> | undefined;
    if (existing) return existing;
    const info = this.at(kindTable[kind]);
    const informer = this.factory.informer<ObjectOf<K>>({
      group: info.group,
      version: info.version,
      plural: info.plural,
      namespace: this.namespace,
    });
    const cache = new Cache<ObjectOf<K>>(informer);
    this.caches.set(kind, cache as unknown as Cache<never>);
    this.addIndexes(kind, cache);
    return cache;
  }

  all(): Cache<never>[] {
    return [...this.caches.values()];
  }

  async synced(): Promise<void> {
    await Promise.all(this.all().map((c) => c.informer.synced));
  }

  private addIndexes<K extends WatchedKind>(kind: K, cache: Cache<ObjectOf<K>>): void {
    const c = cache as unknown as Cache<ObjectOf<WatchedKind>>;
    switch (kind) {
      case 'Machine':
        c.addIndex(BY_OWNER, byControllerOwner);
        c.addIndex(BY_CLUSTER, (o) => {
          const m = o as ObjectOf<'Machine'>;
          return m.spec?.clusterName ? [indexKey(ns(m), m.spec.clusterName)] : [];
        });
        break;
      case 'MachineSet':
        c.addIndex(BY_OWNER, byControllerOwner);
        c.addIndex(BY_CLUSTER, (o) => {
          const ms = o as ObjectOf<'MachineSet'>;
          return ms.spec?.clusterName ? [indexKey(ns(ms), ms.spec.clusterName)] : [];
        });
        break;
      case 'MachineDeployment':
        c.addIndex(BY_TEMPLATE, (o) => {
          const md = o as ObjectOf<'MachineDeployment'>;
          const spec = md.spec?.template.spec;
          const refs = [spec?.infrastructureRef, spec?.bootstrap.configRef];
          return refs.flatMap((r) =>
            r?.kind && r.name ? [indexKey(ns(md), `${r.kind}/${r.name}`)] : [],
          );
        });
        c.addIndex(BY_CLUSTER, (o) => {
          const md = o as ObjectOf<'MachineDeployment'>;
          return md.spec?.clusterName ? [indexKey(ns(md), md.spec.clusterName)] : [];
        });
        break;
      case 'DCSMachine':
        c.addIndex(BY_POOL, (o) => {
          const dm = o as ObjectOf<'DCSMachine'>;
          return dm.spec?.ipHostPoolRef.name ? [indexKey(ns(dm), dm.spec.ipHostPoolRef.name)] : [];
        });
        c.addIndex(BY_CLUSTER, byClusterLabel);
        break;
      case 'DCSMachineTemplate':
        c.addIndex(BY_POOL, (o) => {
          const t = o as ObjectOf<'DCSMachineTemplate'>;
          const pool = t.spec?.template.spec.ipHostPoolRef.name;
          return pool ? [indexKey(ns(t), pool)] : [];
        });
        break;
      case 'MachineHealthCheck':
        c.addIndex(BY_CLUSTER, (o) => {
          const mhc = o as ObjectOf<'MachineHealthCheck'>;
          return mhc.spec?.clusterName ? [indexKey(ns(mhc), mhc.spec.clusterName)] : [];
        });
        break;
      case 'KubeadmConfig':
      case 'KubeadmControlPlane':
        c.addIndex(BY_CLUSTER, byClusterLabel);
        break;
      default:
        break;
    }
  }
}
