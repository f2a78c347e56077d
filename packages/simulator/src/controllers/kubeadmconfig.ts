import {
  LABEL_CLUSTER_NAME,
  LABEL_CONTROL_PLANE,
  kindTable,
  type KubeadmConfig,
} from '@dcs/domain';
import {
  falseCondition,
  getCondition,
  setConditions,
  trueCondition,
  withSummary,
} from '../logic/conditions';
import { CONTROL_PLANE_INITIALIZED } from '../logic/cluster-status';
import { isAlreadyExists } from '../runtime/client';
import { splitKey, watch, type Context, type Controller } from '../runtime/context';
import { BY_CLUSTER, indexKey } from '../runtime/caches';
import type { ReconcileResult } from '../runtime/queue';
import { PausedKeys } from './paused';
import { controlPlaneFirst, same } from './util';

/**
 * The kubeadm bootstrap provider (CABPK): once the cluster's infrastructure is ready (and, for
 * joining nodes, the control plane is initialized) it renders the node's bootstrap data into a
 * Secret and reports `status.ready` and `status.dataSecretName`.
 */

const DATA_SECRET_AVAILABLE = 'DataSecretAvailable';
const CERTIFICATES_AVAILABLE = 'CertificatesAvailable';
const SECRET_TYPE = 'cluster.x-k8s.io/secret';

/** The bootstrap data: the config as the node receives it (ignition by default on DCS). */
function bootstrapData(config: KubeadmConfig): string {
  const spec = config.spec ?? {};
  return JSON.stringify({
    ignition: { version: '3.4.0' },
    passwd: { users: spec.users ?? [] },
    storage: {
      files: (spec.files ?? []).map((f) => ({
        path: f.path,
        mode: f.permissions,
        contents: f.content ?? f.contentFrom,
      })),
    },
    kubeadm: {
      preKubeadmCommands: spec.preKubeadmCommands ?? [],
      postKubeadmCommands: spec.postKubeadmCommands ?? [],
      initConfiguration: spec.initConfiguration,
      joinConfiguration: spec.joinConfiguration,
    },
  });
}

export function kubeadmConfigController(ctx: Context): Controller {
  const configs = ctx.caches.get('KubeadmConfig');
  const clusters = ctx.caches.get('Cluster');
  const machines = ctx.caches.get('Machine');
  // The kubeadm bootstrap provider honours pausing (annotations.IsPaused) without a v1beta2 condition.
  const paused = new PausedKeys();

  async function reconcile(key: string): Promise<ReconcileResult | undefined> {
    const { namespace, name } = splitKey(key);
    const config = configs.get(namespace, name);
    if (!config || config.metadata.deletionTimestamp || config.status?.ready) return undefined;
    const nowISO = ctx.clock.stamp();
    const owner = config.metadata.ownerReferences?.find((r) => r.kind === 'Machine');
    const machine = owner ? machines.get(namespace, owner.name) : undefined;
    if (!machine) return undefined; // "Waiting for Machine Controller to set OwnerRef on KubeadmConfig"
    const clusterName =
      config.metadata.labels?.[LABEL_CLUSTER_NAME] ?? machine.spec?.clusterName ?? '';
    const cluster = clusters.get(namespace, clusterName);
    if (paused.skip(key, `${namespace ?? ''}/${clusterName}`, config, cluster)) return undefined;
    const isInit =
      Boolean(config.spec?.initConfiguration) &&
      machine.metadata.labels?.[LABEL_CONTROL_PLANE] !== undefined;

    let waiting: string | undefined;
    if (!cluster?.status?.infrastructureReady) waiting = 'WaitingForClusterInfrastructure';
    else if (
      !isInit &&
      getCondition(cluster.status.conditions, CONTROL_PLANE_INITIALIZED)?.status !== 'True'
    ) {
      waiting = 'WaitingForControlPlaneAvailable';
    }
    if (waiting) {
      const conditions = withSummary(
        setConditions(
          config.status?.conditions,
          [falseCondition(DATA_SECRET_AVAILABLE, waiting, 'Info')],
          nowISO,
        ),
        { conditions: [DATA_SECRET_AVAILABLE] },
        nowISO,
      );
      const status = {
        ...(config.status ?? {}),
        conditions,
        observedGeneration: config.metadata.generation ?? 0,
      };
      if (!same(status, config.status))
        await ctx.writer.updateStatus('KubeadmConfig', { ...config, status });
      return undefined;
    }

    try {
      await ctx.client.create(kindTable.Secret, {
        apiVersion: 'v1',
        kind: 'Secret',
        type: SECRET_TYPE,
        metadata: {
          name,
          namespace,
          labels: { [LABEL_CLUSTER_NAME]: clusterName },
          ownerReferences: [
            {
              apiVersion: config.apiVersion,
              kind: 'KubeadmConfig',
              name,
              uid: config.metadata.uid ?? '',
              controller: true,
            },
          ],
        },
        data: {
          value: Buffer.from(bootstrapData(config)).toString('base64'),
          format: Buffer.from(config.spec?.format ?? 'cloud-config').toString('base64'),
        },
      });
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
    const conditions = withSummary(
      setConditions(
        config.status?.conditions,
        [trueCondition(CERTIFICATES_AVAILABLE), trueCondition(DATA_SECRET_AVAILABLE)],
        nowISO,
      ),
      { conditions: [DATA_SECRET_AVAILABLE, CERTIFICATES_AVAILABLE] },
      nowISO,
    );
    await ctx.writer.updateStatus('KubeadmConfig', {
      ...config,
      status: {
        ...(config.status ?? {}),
        ready: true,
        dataSecretName: name,
        conditions,
        observedGeneration: config.metadata.generation ?? 0,
      },
    });
    return undefined;
  }

  return {
    name: 'kubeadmconfig',
    primary: 'KubeadmConfig',
    isPriority: controlPlaneFirst(configs),
    concurrency: 8,
    watches: [
      // The Machine adopting its config is an update of the config itself: no Machine watch needed.
      // Cluster readiness gates every config of the cluster that is still waiting.
      // Only the configs whose waiting reason the cluster's new status changes: the cluster's
      // status changes with every control-plane step, and waking thousands of configs each time
      // floods the queue. A config not reconciled yet has no reason and is woken (it is queued).
      watch('Cluster', (c) => {
        const expected = !c.status?.infrastructureReady
          ? 'WaitingForClusterInfrastructure'
          : getCondition(c.status.conditions, CONTROL_PLANE_INITIALIZED)?.status !== 'True'
            ? 'WaitingForControlPlaneAvailable'
            : undefined;
        return configs
          .byIndex(BY_CLUSTER, indexKey(c.metadata.namespace, c.metadata.name ?? ''))
          .filter((k) => {
            if (k.status?.ready) return false;
            const cond = getCondition(k.status?.conditions, DATA_SECRET_AVAILABLE);
            const reason = cond && cond.status !== 'True' ? cond.reason : undefined;
            const init =
              Boolean(k.spec?.initConfiguration) &&
              k.metadata.labels?.[LABEL_CONTROL_PLANE] !== undefined;
            const wanted =
              init && expected === 'WaitingForControlPlaneAvailable' ? undefined : expected;
            return reason !== wanted || cond === undefined;
          })
          .map((k) => `${k.metadata.namespace ?? ''}/${k.metadata.name ?? ''}`)
          .concat(paused.wake(c));
      }),
    ],
    reconcile,
  };
}
