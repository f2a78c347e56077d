import {
  controlPlaneVersionOf,
  hasPausedAnnotation,
  ipPoolContextOf,
  ipPoolView,
  type ValidationContext,
} from '@dcs/domain';
import type { Principal } from '../auth/principal';
import type { ObjectCache } from '../cache/object-cache';
import { KubeApiError } from '../kube/errors';
import { getObject } from '../kube/objects';
import type { Globals } from '../views/globals';

/**
 * The ValidationContext of a namespace and cluster, from the cache: the very object the context
 * route sends to the browser and the write routes hand to the planners, so that forms and BFF
 * run the same rules on the same facts. Secret contents (R-BOOT-1) are read with the user's own
 * credential: a Secret the user may not get is simply absent ("unknown"), never leaked.
 */

export function secretNamesOf(cache: ObjectCache, globals: Globals, namespace: string): string[] {
  const names = new Set<string>();
  for (const t of cache.stores.KubeadmConfigTemplate.inNamespace(namespace)) {
    for (const f of t.spec?.template.spec?.files ?? []) {
      const s = f.contentFrom?.secret.name;
      if (s !== undefined) names.add(s);
    }
  }
  for (const v of globals.versions) if (v.bootstrapFilesSecret) names.add(v.bootstrapFilesSecret);
  return [...names].sort();
}

/** Secrets' data (decoded), those the user may read; others are left out. */
export async function readableSecrets(
  principal: Principal,
  namespace: string,
  names: readonly string[],
): Promise<{ name: string; data: Record<string, string> }[]> {
  const out = await Promise.all(
    names.map(async (name) => {
      try {
        const s = (await getObject(principal.client, 'Secret', namespace, name)) as {
          data?: Record<string, string>;
          stringData?: Record<string, string>;
        };
        const data: Record<string, string> = {};
        for (const [k, v] of Object.entries(s.data ?? {}))
          data[k] = Buffer.from(v, 'base64').toString('utf8');
        return { name, data };
      } catch (error) {
        if (error instanceof KubeApiError && (error.status === 403 || error.status === 404))
          return undefined;
        throw error;
      }
    }),
  );
  return out.filter((s): s is { name: string; data: Record<string, string> } => s !== undefined);
}

export function validationContext(
  cache: ObjectCache,
  globals: Globals,
  namespace: string,
  clusterName: string,
  bootstrapSecrets: ValidationContext['bootstrapSecrets'] = [],
): ValidationContext {
  const s = cache.stores;
  const names = (list: readonly { metadata: { name?: string } }[]) =>
    list.map((o) => o.metadata.name ?? '').sort();
  const mds = s.MachineDeployment.inNamespace(namespace);
  const templates = s.DCSMachineTemplate.inNamespace(namespace);
  const bootstraps = s.KubeadmConfigTemplate.inNamespace(namespace);
  const pools = s.DCSIpHostnamePool.inNamespace(namespace);
  const cluster = s.Cluster.get(namespace, clusterName);
  const ref = cluster?.spec?.controlPlaneRef;
  const kcp =
    (ref?.kind === 'KubeadmControlPlane' && ref.name !== undefined
      ? s.KubeadmControlPlane.get(namespace, ref.name)
      : undefined) ?? s.KubeadmControlPlane.byIndex('cluster', `${namespace}/${clusterName}`)[0];
  // R-PAUSE-1: what of this cluster is paused now (its spec.paused, its annotated objects).
  const ofCluster = `${namespace}/${clusterName}`;
  const annotated = [
    ...(kcp && hasPausedAnnotation(kcp) ? [kcp] : []),
    ...mds.filter((md) => md.spec?.clusterName === clusterName),
    ...s.MachineSet.inNamespace(namespace).filter((ms) => ms.spec?.clusterName === clusterName),
    ...s.Machine.byIndex('cluster', ofCluster),
  ].filter(hasPausedAnnotation);
  return {
    namespace,
    clusterName,
    namesInUse: {
      machineDeployments: names(mds),
      machineTemplates: names(templates),
      bootstrapTemplates: names(bootstraps),
      ipPools: names(pools),
    },
    ipPools: pools.map((pool) => {
      const name = pool.metadata.name ?? '';
      // R-POOL-1: worker pools and control planes whose machine template names the pool.
      const consumers = s.DCSMachineTemplate.byIndex('ipPool', `${namespace}/${name}`).flatMap(
        (t) => {
          const template = `${namespace}/${t.metadata.name ?? ''}`;
          return [
            ...s.KubeadmControlPlane.byIndex('template', template),
            ...s.MachineDeployment.byIndex('template', template),
          ];
        },
      );
      return ipPoolContextOf(
        pool,
        ipPoolView(pool, s.DCSMachine.byIndex('ipPool', `${namespace}/${name}`), consumers),
      );
    }),
    // The cluster's worker pools and their current template: a new pool's defaults follow them.
    workerPools: mds
      .filter((md) => md.spec?.clusterName === clusterName)
      .map((md) => ({
        name: md.metadata.name ?? '',
        machineTemplate: md.spec?.template.spec.infrastructureRef.name,
      })),
    machineTemplates: templates.flatMap((t) =>
      t.spec ? [{ name: t.metadata.name ?? '', spec: t.spec.template.spec }] : [],
    ),
    bootstrapTemplates: bootstraps.flatMap((t) =>
      t.spec?.template.spec ? [{ name: t.metadata.name ?? '', spec: t.spec.template.spec }] : [],
    ),
    bootstrapSecrets,
    versions: globals.versions,
    providerVersion: globals.providerVersion,
    controlPlaneVersion: controlPlaneVersionOf(kcp),
    ...(cluster
      ? {
          paused: {
            cluster: cluster.spec?.paused === true,
            objects: [...new Set(annotated)].map((o) => ({
              kind: o.kind,
              name: o.metadata.name ?? '',
            })),
          },
        }
      : {}),
  };
}
