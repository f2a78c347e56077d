import {
  DCS_CONDITIONS,
  LABEL_CLUSTER_NAME,
  type Cluster,
  type DCSCluster,
  type KubeadmControlPlane,
} from '@dcs/domain';
import { clusterStatus, clusterV2Status } from '../logic/cluster-status';
import { BY_CLUSTER, indexKey } from '../runtime/caches';
import { setConditions, trueCondition, withSummary } from '../logic/conditions';
import { ownerRef } from '../logic/machine-desired';
import { splitKey, watch, type Context, type Controller } from '../runtime/context';
import type { ReconcileResult } from '../runtime/queue';
import { ensurePausedCondition } from './paused';
import { hasOwner, same, withOwner } from './util';

/**
 * Cluster API's Cluster controller (v1.10): owns its DCSCluster and KubeadmControlPlane, copies the
 * control-plane endpoint, and reports phase and conditions with the events Cluster API emits.
 * The DCS provider's DCSCluster controller (below) reports the DCS side ready.
 */

const COMPONENT = 'cluster-controller';

export function clusterController(ctx: Context): Controller {
  const clusters = ctx.caches.get('Cluster');
  const dcsClusters = ctx.caches.get('DCSCluster');
  const kcps = ctx.caches.get('KubeadmControlPlane');
  const deployments = ctx.caches.get('MachineDeployment');

  async function own<T extends DCSCluster | KubeadmControlPlane>(
    cluster: Cluster,
    obj: T | undefined,
    write: (o: T) => Promise<unknown>,
  ): Promise<void> {
    if (!obj || obj.metadata.deletionTimestamp) return;
    const name = cluster.metadata.name ?? '';
    const labelled = obj.metadata.labels?.[LABEL_CLUSTER_NAME] === name;
    if (labelled && hasOwner(obj.metadata.ownerReferences, cluster.metadata.uid)) return;
    await write({
      ...obj,
      metadata: {
        ...obj.metadata,
        labels: { ...(obj.metadata.labels ?? {}), [LABEL_CLUSTER_NAME]: name },
        ownerReferences: withOwner(obj.metadata.ownerReferences, ownerRef(cluster, true)),
      },
    });
  }

  async function reconcile(key: string): Promise<ReconcileResult | undefined> {
    const { namespace, name } = splitKey(key);
    let cluster = clusters.get(namespace, name);
    if (!cluster) return undefined;
    // EnsurePausedCondition(cluster, cluster): a paused Cluster is not reconciled either.
    const pause = await ensurePausedCondition(ctx, 'Cluster', cluster, cluster);
    if (pause.stop) return pause.result;
    const infraRef = cluster.spec?.infrastructureRef;
    const cpRef = cluster.spec?.controlPlaneRef;
    const infra = infraRef?.name
      ? dcsClusters.get(infraRef.namespace ?? namespace, infraRef.name)
      : undefined;
    const kcp = cpRef?.name ? kcps.get(cpRef.namespace ?? namespace, cpRef.name) : undefined;
    await own(cluster, infra, (o) => ctx.writer.update('DCSCluster', o));
    await own(cluster, kcp, (o) => ctx.writer.update('KubeadmControlPlane', o));

    const endpoint = infra?.spec?.controlPlaneEndpoint;
    if (endpoint?.host && !cluster.spec?.controlPlaneEndpoint?.host && cluster.spec) {
      cluster = await ctx.writer.update('Cluster', {
        ...cluster,
        spec: { ...cluster.spec, controlPlaneEndpoint: endpoint },
      });
    }

    const before = cluster.status ?? {};
    const nowISO = ctx.clock.stamp();
    const status = clusterStatus(cluster, infra, kcp, nowISO);
    status.v1beta2 = clusterV2Status({
      cluster,
      status,
      infra,
      kcp,
      deployments: deployments.byIndex(BY_CLUSTER, indexKey(namespace, name)),
      nowISO,
    });
    if (same(status, before)) return undefined;
    await ctx.writer.updateStatus('Cluster', { ...cluster, status });
    if (status.phase !== before.phase) {
      const failed = status.phase === 'Failed';
      ctx.events.emit(
        cluster,
        failed ? 'Warning' : 'Normal',
        status.phase ?? 'Unknown',
        failed
          ? `Cluster ${name} is Failed: ${status.failureMessage ?? 'unknown'}`
          : `Cluster ${name} is ${status.phase ?? 'Unknown'}`,
        COMPONENT,
      );
    }
    if (Boolean(status.infrastructureReady) !== Boolean(before.infrastructureReady)) {
      ctx.events.emit(
        cluster,
        'Normal',
        'InfrastructureReady',
        `Cluster ${name} InfrastructureReady is now ${String(status.infrastructureReady)}`,
        COMPONENT,
      );
    }
    if (Boolean(status.controlPlaneReady) !== Boolean(before.controlPlaneReady)) {
      ctx.events.emit(
        cluster,
        'Normal',
        'ControlPlaneReady',
        `Cluster ${name} ControlPlaneReady is now ${String(status.controlPlaneReady)}`,
        COMPONENT,
      );
    }
    return undefined;
  }

  const toCluster = (o: DCSCluster | KubeadmControlPlane) => {
    const owner = o.metadata.ownerReferences?.find((r) => r.kind === 'Cluster')?.name;
    const label = o.metadata.labels?.[LABEL_CLUSTER_NAME];
    const named = clusters
      .list()
      .filter(
        (c) =>
          c.metadata.namespace === o.metadata.namespace &&
          (c.spec?.infrastructureRef?.name === o.metadata.name ||
            c.spec?.controlPlaneRef?.name === o.metadata.name),
      )
      .map((c) => c.metadata.name ?? '');
    return [...new Set([owner, label, ...named].filter((n): n is string => Boolean(n)))].map(
      (n) => `${o.metadata.namespace ?? ''}/${n}`,
    );
  };

  return {
    name: 'cluster',
    primary: 'Cluster',
    watches: [
      watch('DCSCluster', toCluster),
      watch('KubeadmControlPlane', toCluster),
      // The pools' Available, RollingOut, Scaling* and counters (v1beta2).
      watch('MachineDeployment', (md) =>
        md.spec?.clusterName ? [`${md.metadata.namespace ?? ''}/${md.spec.clusterName}`] : [],
      ),
    ],
    reconcile,
  };
}

/** The DCS provider's DCSCluster controller: the DCS endpoint and credentials work, so it is ready. */
export function dcsClusterController(ctx: Context): Controller {
  const dcsClusters = ctx.caches.get('DCSCluster');
  async function reconcile(key: string): Promise<ReconcileResult | undefined> {
    const { namespace, name } = splitKey(key);
    const dc = dcsClusters.get(namespace, name);
    if (!dc || dc.metadata.deletionTimestamp) return undefined;
    const nowISO = ctx.clock.stamp();
    const conditions = withSummary(
      setConditions(
        dc.status?.conditions,
        [trueCondition(DCS_CONDITIONS.dcsConnectionReady)],
        nowISO,
      ),
      { conditions: [DCS_CONDITIONS.dcsConnectionReady] },
      nowISO,
    );
    const status = { ...(dc.status ?? {}), ready: true, conditions };
    if (!same(status, dc.status)) await ctx.writer.updateStatus('DCSCluster', { ...dc, status });
    return undefined;
  }
  return { name: 'dcscluster', primary: 'DCSCluster', watches: [], reconcile };
}
