import { randomBytes } from 'node:crypto';
import { startApiServer, type ApiServer, type ObjectChange } from '@dcs/apiserver';

/**
 * The simulated workload clusters: one `@dcs/apiserver` per Cluster (127.0.0.1, a free port,
 * HTTPS with its own CA), started lazily when the Cluster's first node joins (its control plane is
 * initialized), serving Nodes (and the namespaces and RBAC every server has, the cluster
 * autoscaler's status ConfigMap where a pool has bounds: `autoscaler-status.ts`, and the Pods and
 * PodDisruptionBudgets a drain meets: `pods.ts`). Bounded: past
 * `maxClusters` a Cluster gets no workload server (logged once) and its Machines run without Nodes.
 * In memory only: a restarted simulator starts new servers (new ports, new CAs), the kubelet
 * registers the Nodes again from the Machines, and the kubeconfig Secret is rewritten.
 */

export interface WorkloadClustersOptions {
  /** At most this many workload API servers (default 64). */
  maxClusters?: number;
  host?: string;
  /** Watch events a workload server keeps per kind for resumption (default 512: Nodes change rarely). */
  watchHistorySize?: number;
  log?: (line: string) => void;
}

export interface WorkloadCluster {
  namespace: string;
  name: string;
  server: ApiServer;
  /** The kubeconfig Cluster API writes into `<cluster>-kubeconfig` (key `value`). */
  kubeconfig: string;
}

/** The user and context names of the kubeconfig Cluster API writes (util/kubeconfig.New). */
export function kubeconfigNames(cluster: string) {
  const user = `${cluster}-admin`;
  return { user, context: `${user}@${cluster}` };
}

export const DEFAULT_MAX_WORKLOAD_CLUSTERS = 64;

/** A change in a workload cluster's API server (`namespace`/`cluster` name the Cluster). */
export type WorkloadChangeListener = (
  namespace: string,
  cluster: string,
  change: ObjectChange,
) => void;

export class WorkloadClusters {
  private readonly servers = new Map<string, Promise<WorkloadCluster | undefined>>();
  private refusedLogged = false;
  private closed = false;
  private readonly listeners = new Set<WorkloadChangeListener>();

  /** Calls `fn` after every change in any workload cluster, running or started later. */
  subscribe(fn: WorkloadChangeListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  constructor(private readonly o: WorkloadClustersOptions = {}) {}

  get size(): number {
    return this.servers.size;
  }

  /** The running workload cluster of `namespace/name`, starting it if needed (undefined past the bound). */
  ensure(namespace: string, name: string): Promise<WorkloadCluster | undefined> {
    const key = `${namespace}/${name}`;
    const known = this.servers.get(key);
    if (known) return known;
    if (this.closed) return Promise.resolve(undefined);
    const max = this.o.maxClusters ?? DEFAULT_MAX_WORKLOAD_CLUSTERS;
    if (this.servers.size >= max) {
      if (!this.refusedLogged) {
        this.refusedLogged = true;
        this.o.log?.(
          `workload clusters: at most ${String(max)} run; ${key} and later ones get no Nodes`,
        );
      }
      return Promise.resolve(undefined);
    }
    const started = this.start(namespace, name);
    this.servers.set(key, started);
    // A failed start is forgotten, so that a later reconcile tries again.
    started.catch(() => {
      if (this.servers.get(key) === started) this.servers.delete(key);
    });
    return started;
  }

  /** The workload cluster if it runs (never starts one). */
  async get(namespace: string, name: string): Promise<WorkloadCluster | undefined> {
    return this.servers.get(`${namespace}/${name}`)?.catch(() => undefined);
  }

  /** Stops the workload cluster of a deleted Cluster. */
  async stop(namespace: string, name: string): Promise<void> {
    const key = `${namespace}/${name}`;
    const running = this.servers.get(key);
    if (!running) return;
    this.servers.delete(key);
    const wc = await running.catch(() => undefined);
    await wc?.server.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.servers.values()];
    this.servers.clear();
    await Promise.all(
      all.map(async (p) => {
        const wc = await p.catch(() => undefined);
        await wc?.server.close();
      }),
    );
  }

  private async start(namespace: string, name: string): Promise<WorkloadCluster> {
    const token = randomBytes(24).toString('base64url');
    const names = kubeconfigNames(name);
    const server = await startApiServer({
      host: this.o.host ?? '127.0.0.1',
      port: 0,
      tls: true,
      tokens: [{ token, user: 'kubernetes-admin', groups: ['system:masters'] }],
      watchHistorySize: this.o.watchHistorySize ?? 512,
    });
    if (this.closed) {
      await server.close();
      throw new Error('workload clusters closed');
    }
    const kubeconfig = server.kubeconfig([{ name: names.context, user: names.user, token }], {
      clusterName: name,
      currentContext: names.context,
    });
    server.onChange((change) => {
      for (const fn of this.listeners) fn(namespace, name, change);
    });
    this.o.log?.(`workload cluster ${namespace}/${name}: ${server.url}`);
    return { namespace, name, server, kubeconfig };
  }
}
