import type { KubeObject as ServerObject, ServerClient } from '@dcs/apiserver';
import {
  CONTROL_PLANE_GROUP,
  LABEL_CLUSTER_NAME,
  kindTable,
  kubeconfigSecretName,
  type Cluster,
  type Machine,
  type Node,
  type Secret,
} from '@dcs/domain';
import { CONTROL_PLANE_INITIALIZED } from '../logic/cluster-status';
import { DRAINING_SUCCEEDED, type EvictionResult } from '../logic/machine-status';
import { desiredNode, nodeInputsChanged } from '../logic/node-desired';
import { isNotFound } from '../runtime/client';
import { splitKey, type Context, type Controller, type Kubelets } from '../runtime/context';
import type { ReconcileResult } from '../runtime/queue';
import type { WorkloadCluster, WorkloadClusters } from '../workload/clusters';
import { drainNode } from '../workload/drain';
import {
  DEFAULT_WORKLOAD_MAX_NODES,
  DRAIN_STUCK_PREFIX,
  WEB,
  WorkloadSync,
  hasWorkload,
} from '../workload/pods';
import { nodeInfoOf } from './node';
import { same } from './util';

/**
 * The simulated kubelets of every workload cluster, and the kubeconfig Secret Cluster API writes
 * for each. A Machine's Node is registered when the Machine controller sets its nodeRef (the uid
 * in the nodeRef is the registered Node's), kept in step with the Machine (Ready, cordon when the
 * drain starts) and deleted before the Machine lets go of its finalizer. Node writes go to the
 * workload API server in process; the Secret goes to the management cluster over its API.
 */

const NODE_REF = { apiVersion: 'v1', kind: 'Node' } as const;
/** The Secret's type and key as Cluster API writes them (util/secret, util/kubeconfig). */
export const KUBECONFIG_SECRET_TYPE = 'cluster.x-k8s.io/secret';
export const KUBECONFIG_SECRET_KEY = 'value';

const codeOf = (e: unknown): number | undefined =>
  typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'number'
    ? e.code
    : undefined;

function isControlPlaneInitialized(c: Cluster): boolean {
  return (
    Boolean(c.status?.controlPlaneReady) ||
    c.status?.conditions?.some(
      (x) => x.type === CONTROL_PLANE_INITIALIZED && x.status === 'True',
    ) === true
  );
}

export class Kubelet implements Kubelets {
  /** The Node each Machine registered (`namespace/machine` → cluster and node name). */
  private readonly registered = new Map<string, { cluster: string; node: string }>();

  constructor(
    private readonly ctx: Context,
    readonly clusters: WorkloadClusters,
    /** Clusters with more Machines have no workload (`workload/pods.ts`). */
    readonly maxWorkloadNodes = DEFAULT_WORKLOAD_MAX_NODES,
    /** The Nodes whose workload is written (a drain waits for it). */
    readonly synced = new WorkloadSync(),
  ) {}

  private nodeOf(client: ServerClient, name: string): Node | undefined {
    return client.get({ ...NODE_REF, name }) as Node | undefined;
  }

  /** Registers (or refreshes) the Node of a Machine under `name`; its uid, or undefined without a workload cluster. */
  async register(
    m: Machine,
    name: string,
    o: { create?: boolean } = {},
  ): Promise<string | undefined> {
    const ns = m.metadata.namespace ?? '';
    const cluster = m.spec?.clusterName;
    if (!cluster || !name) return undefined;
    const wc = await this.clusters.ensure(ns, cluster).catch((e: unknown) => {
      this.ctx.log(`workload cluster ${ns}/${cluster}: ${(e as Error).message}`);
      return undefined;
    });
    if (!wc) return undefined;
    if (o.create === false && !this.nodeOf(wc.server.client, name)) return undefined;
    this.registered.set(`${ns}/${m.metadata.name ?? ''}`, { cluster, node: name });
    const node = await this.apply(wc, m, name);
    return node.metadata.uid;
  }

  /** Deletes the Machine's Node (Cluster API's deleteNode, after the drain). */
  async remove(m: Machine): Promise<void> {
    const key = `${m.metadata.namespace ?? ''}/${m.metadata.name ?? ''}`;
    const name = m.status?.nodeRef?.name ?? this.registered.get(key)?.node;
    const cluster = m.spec?.clusterName ?? this.registered.get(key)?.cluster;
    this.registered.delete(key);
    if (!name || !cluster) return;
    const wc = await this.clusters.get(m.metadata.namespace ?? '', cluster);
    if (!wc) return;
    await wc.server.client.delete({ ...NODE_REF, name }).catch((e: unknown) => {
      if (codeOf(e) !== 404) throw e;
    });
  }

  /** One round of Cluster API's drain of the Machine's Node (Kubelets.drain). */
  async drain(
    m: Machine,
    nodeName: string,
    stuck = false,
  ): Promise<EvictionResult | 'done' | 'not-synced' | undefined> {
    const ns = m.metadata.namespace ?? '';
    const cluster = m.spec?.clusterName;
    if (!cluster || !hasWorkload(this.ctx, ns, cluster, this.maxWorkloadNodes)) return undefined;
    const wc = await this.clusters.get(ns, cluster);
    if (!wc) return undefined;
    // Until its drain is over a deleting Machine's Node is registered again if it is missing (a
    // restarted simulator's new server, or deleted by hand): the drain waits for it, and for its
    // workload to be written.
    if (!this.nodeOf(wc.server.client, nodeName)) return 'not-synced';
    if (!this.synced.has(wc, nodeName)) return 'not-synced';
    // drain-stuck asked for just now: its budget is the workload controller's to write; the
    // drain waits until it is there and observed, or it would evict before the budget holds.
    if (stuck) {
      const pdb = wc.server.client.get({
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        name: `${DRAIN_STUCK_PREFIX}${nodeName}`,
        namespace: WEB.namespace,
      });
      const observed = (pdb?.status as { observedGeneration?: number } | undefined)
        ?.observedGeneration;
      if (!pdb || observed !== pdb.metadata.generation) return 'not-synced';
    }
    return drainNode(wc.server.client, nodeName);
  }

  /** The NodeSystemInfo the kubelet reports: the Machine's, or the one it will get. */
  private nodeInfo(m: Machine): Record<string, string> {
    return (
      (m.status?.nodeInfo as Record<string, string> | undefined) ?? {
        ...nodeInfoOf(m, this.ctx.options.randomSeed),
      }
    );
  }

  /** Writes what differs between the Node and the Machine's desired Node; retries a lost race. */
  private async apply(wc: WorkloadCluster, m: Machine, name: string): Promise<Node> {
    const client = wc.server.client;
    const nodeInfo = this.nodeInfo(m);
    for (let attempt = 0; ; attempt++) {
      try {
        let current = this.nodeOf(client, name);
        const want = desiredNode({
          machine: m,
          current,
          name,
          nodeInfo,
          nowISO: this.ctx.clock.stamp(),
        });
        // A create ignores status (the status subresource): the kubelet posts it next.
        current ??= (await client.create(want as ServerObject)) as Node;
        const meta = current.metadata;
        if (
          !same(want.metadata.labels, meta.labels) ||
          !same(want.metadata.annotations, meta.annotations) ||
          !same(want.spec, current.spec)
        ) {
          current = (await client.update({
            ...current,
            metadata: {
              ...meta,
              labels: want.metadata.labels,
              annotations: want.metadata.annotations,
            },
            spec: want.spec,
          } as ServerObject)) as Node;
        }
        if (!same(want.status, current.status)) {
          current = (await client.update({ ...current, status: want.status } as ServerObject, {
            subresource: 'status',
          })) as Node;
        }
        return current;
      } catch (e) {
        // Two writers (the Machine controller registering, this controller refreshing) raced.
        if (codeOf(e) !== 409 || attempt >= 3) throw e;
      }
    }
  }

  /** The kubelet controller: keeps every Machine's Node in step with it. */
  controller(): Controller {
    const machines = this.ctx.caches.get('Machine');
    return {
      name: 'kubelet',
      primary: 'Machine',
      watches: [],
      concurrency: 8,
      // A Machine is written a dozen times on its way to Running; its Node changes about three
      // times (registered, Ready, cordoned). Other changes wake no kubelet.
      primaryChanged: (now: Machine, before: Machine) =>
        nodeInputsChanged(before, now, (m) => this.nodeInfo(m)),
      reconcile: async (key: string): Promise<ReconcileResult | undefined> => {
        const { namespace, name } = splitKey(key);
        const m = machines.get(namespace, name);
        if (!m) {
          // Gone without the finalizer's path (force-deleted): the Node goes too.
          const known = this.registered.get(key);
          if (known) {
            await this.remove({
              apiVersion: 'cluster.x-k8s.io/v1beta1',
              kind: 'Machine',
              metadata: { name, namespace: namespace ?? '' },
              spec: { clusterName: known.cluster, bootstrap: {} },
              status: { nodeRef: { name: known.node } },
            } as Machine);
          }
          return undefined;
        }
        const nodeName = m.status?.nodeRef?.name;
        if (!nodeName || !m.spec?.clusterName) return undefined;
        // A deleting Machine's Node is only updated (cordoned): once deleted it stays deleted.
        // Until its drain is over it still exists, though: a restarted simulator (whose
        // workload servers start empty) registers it again, cordoned, and the drain goes on.
        const draining = m.status?.conditions?.find((x) => x.type === DRAINING_SUCCEEDED);
        const drainOver = draining?.status === 'True' || draining?.reason === 'DrainingFailed';
        await this.register(m, nodeName, { create: !m.metadata.deletionTimestamp || !drainOver });
        return undefined;
      },
    };
  }

  /** Writes `<cluster>-kubeconfig` as Cluster API does, unless it already holds this kubeconfig. */
  async writeKubeconfigSecret(c: Cluster, wc: WorkloadCluster): Promise<void> {
    const namespace = c.metadata.namespace ?? '';
    const name = kubeconfigSecretName(c.metadata.name ?? '');
    const value = Buffer.from(wc.kubeconfig).toString('base64');
    const cpRef = c.spec?.controlPlaneRef;
    const kcp =
      cpRef?.kind === 'KubeadmControlPlane' && cpRef.name
        ? this.ctx.caches.get('KubeadmControlPlane').get(cpRef.namespace ?? namespace, cpRef.name)
        : undefined;
    // KCP owns the Secret of the clusters it manages (it writes it), else the Cluster.
    const owner = kcp?.metadata.uid
      ? {
          apiVersion: `${CONTROL_PLANE_GROUP}/v1beta1`,
          kind: 'KubeadmControlPlane',
          name: kcp.metadata.name ?? '',
          uid: kcp.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        }
      : {
          apiVersion: c.apiVersion,
          kind: 'Cluster',
          name: c.metadata.name ?? '',
          uid: c.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        };
    let current: Secret | undefined;
    try {
      current = await this.ctx.client.get<Secret>(kindTable.Secret, namespace, name);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    const want: Secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name,
        namespace,
        labels: { [LABEL_CLUSTER_NAME]: c.metadata.name ?? '' },
        ownerReferences: [owner],
      },
      type: KUBECONFIG_SECRET_TYPE,
      data: { [KUBECONFIG_SECRET_KEY]: value },
    };
    if (!current) {
      await this.ctx.client.create(kindTable.Secret, want);
      return;
    }
    if (
      current.data?.[KUBECONFIG_SECRET_KEY] === value &&
      current.type === KUBECONFIG_SECRET_TYPE &&
      current.metadata.labels?.[LABEL_CLUSTER_NAME] === c.metadata.name
    ) {
      return;
    }
    // The type of a Secret cannot change: one of another type is replaced.
    if (current.type !== KUBECONFIG_SECRET_TYPE) {
      await this.ctx.client.delete(kindTable.Secret, namespace, name);
      await this.ctx.client.create(kindTable.Secret, want);
      return;
    }
    await this.ctx.client.update(kindTable.Secret, {
      ...current,
      metadata: {
        ...current.metadata,
        labels: { ...(current.metadata.labels ?? {}), ...want.metadata.labels },
      },
      data: { ...(current.data ?? {}), ...want.data },
    });
  }

  /**
   * The workload-cluster controller: a Cluster whose control plane is initialized has its
   * workload API server and its kubeconfig Secret; a deleted Cluster's server stops.
   */
  clusterController(): Controller {
    const clusters = this.ctx.caches.get('Cluster');
    return {
      name: 'workload-cluster',
      primary: 'Cluster',
      watches: [],
      concurrency: 2,
      reconcile: async (key: string): Promise<ReconcileResult | undefined> => {
        const { namespace, name } = splitKey(key);
        const c = clusters.get(namespace, name);
        if (!c || c.metadata.deletionTimestamp) {
          await this.clusters.stop(namespace ?? '', name);
          return undefined;
        }
        if (!isControlPlaneInitialized(c)) return undefined;
        const wc = await this.clusters.ensure(namespace ?? '', name);
        if (wc) await this.writeKubeconfigSecret(c, wc);
        return undefined;
      },
    };
  }
}
