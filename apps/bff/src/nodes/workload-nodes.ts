import { createHash } from 'node:crypto';
import {
  AUTOSCALER_STATUS_CONFIGMAP,
  AUTOSCALER_STATUS_NAMESPACE,
  ConfigMapSchema,
  NodeSchema,
  kubeconfigSecretName,
  nodeJoinKeyOf,
  nodeSummaryOf,
  nodeViewsOf,
  type ClusterNodeSummaries,
  type ClusterNodesView,
  type ConfigMap,
  type Machine,
  type Node,
  type NodeSummary,
  type NodeView,
} from '@dcs/domain';
import { Informer } from '@dcs/informer';
import { KubeConfig, type Cluster, type User } from '@kubernetes/client-node';
import type { Principal } from '../auth/principal';
import { KubeApiError } from '../kube/errors';

/**
 * The Nodes of workload clusters (issue 12), read through each Cluster's `<cluster>-kubeconfig`
 * Secret, the way `kubectl --kubeconfig <that Secret> get nodes` would.
 *
 * - Fan-out: ONE list+watch of Nodes per workload cluster, shared by every user and tab; a user's
 *   request reads the cache. At most `maxClusters` watches run (the least recently asked stops
 *   first) and a watch nobody asked for in `idleMs` stops.
 * - Rights: before anything leaves, the user's own right to `get` that Secret is checked (an
 *   access review, cached as every other); without it the answer is the reason, not the Nodes.
 *   The Secret itself is read with the user's credential (the BFF's own identity needs no right
 *   to Secrets), again when the watch fails or at most every `secretRecheckMs`, so a rewritten
 *   Secret (a restarted cluster: new port, CA, token) is followed.
 * - The cluster autoscaler's status (issue 26 item 2): the ConfigMap
 *   `kube-system/cluster-autoscaler-status` of the same workload cluster, through the same
 *   Secret and rights, watched alone (a field selector on its name) from the first time someone
 *   asks for it, and stopped with the cluster's Nodes watch.
 * - The kubeconfig never leaves the BFF. Only its server, CA, bearer token and client
 *   certificate are used: exec plugins, auth providers, file references and skipped TLS
 *   verification are refused, since whoever may write that Secret would otherwise run commands
 *   or read files on the BFF's host.
 */

export interface WorkloadNodesOptions {
  /** Whether the principal may `get` the Secret (an access review). */
  mayReadSecret(principal: Principal, namespace: string, name: string): Promise<boolean>;
  maxClusters?: number;
  idleMs?: number;
  secretRecheckMs?: number;
  /** How long a request waits for a new watch's first list before answering `pending`. */
  firstListWaitMs?: number;
  now?: () => number;
  log?: (message: string, error?: unknown) => void;
}

/** The last join of an entry's Nodes, reused while neither the Nodes nor the join's inputs move. */
interface Joined {
  resourceVersion: string;
  machines: string;
  nodes: NodeView[];
  summaries?: NodeSummary[];
}

/**
 * One answer: the view, and when it is `ok`, a version that changes whenever the Nodes or the
 * Machines' part of the join change (the route's ETag), and the one-line-per-Node summaries.
 */
export interface NodesAnswer {
  view: ClusterNodesView;
  version?: string;
  summaries(): ClusterNodeSummaries;
}

interface Entry {
  /** Distinct per watch started, so that a restarted watch never repeats an old version. */
  id: number;
  joined: Joined | undefined;
  /**
   * The join key of the Machines last asked with: the cache replaces an object on every change,
   * so the same objects (by identity) have the same key, and a poll of an unchanged cluster costs
   * no string building, sort or hash over its 20,000 machines.
   */
  machinesKey: { machines: readonly Machine[]; key: string } | undefined;
  key: string;
  value: string;
  informer: Informer<Node>;
  /** The workload cluster's own kubeconfig, as used (for the watches started later). */
  kc: KubeConfig;
  /** The autoscaler's status ConfigMap, watched from the first request for it. */
  autoscaler: AutoscalerWatch | undefined;
  failingSince: number | undefined;
  lastError: string | undefined;
  lastUsed: number;
  secretReadAt: number;
  /**
   * Who last read the Secret for this watch: while the watch fails, the Secret is read again with
   * that credential every FAILING_RECHECK_MS without waiting for a request (issue 25), so a
   * rewritten Secret (new port, CA, token) is followed. Dropped when it may no longer read it.
   */
  reader: Principal | undefined;
  /** The pending re-read while the watch fails. */
  recheck: ReturnType<typeof setTimeout> | undefined;
}

interface AutoscalerWatch {
  informer: Informer<ConfigMap>;
  failingSince: number | undefined;
  lastError: string | undefined;
}

/** What a workload cluster says of its cluster autoscaler: its status ConfigMap, or why not. */
export type AutoscalerAnswer =
  | { view: Exclude<ClusterNodesView, { status: 'ok' }> }
  | {
      secret: string;
      /** The ConfigMap, when the autoscaler wrote one (undefined: none runs, or it writes none). */
      configMap: ConfigMap | undefined;
      /** Changes whenever the ConfigMap does (the route's ETag). */
      version: string;
    };

type SecretRead =
  | { kind: 'value'; value: string }
  | { kind: 'missing' }
  | { kind: 'forbidden' }
  | { kind: 'invalid'; message: string };

export const DEFAULT_MAX_WORKLOAD_WATCHES = 32;

/** The Machines' join keys (name, nodeRef, deletion, drain) hashed; recomputed only when they may differ. */
function machinesKeyOf(entry: Entry, machines: readonly Machine[]): string {
  const last = entry.machinesKey;
  if (
    last?.machines.length === machines.length &&
    last.machines.every((m, i) => m === machines[i])
  ) {
    return last.key;
  }
  const key = createHash('sha1')
    .update(machines.map(nodeJoinKeyOf).sort().join('\n'))
    .digest('base64url')
    .slice(0, 20);
  entry.machinesKey = { machines: [...machines], key };
  return key;
}

/** Why a kubeconfig from a Secret is refused; undefined when usable. */
export function unsafeKubeconfigReason(kc: KubeConfig): string | undefined {
  const cluster: Cluster | null = kc.getCurrentCluster();
  const user: User | null = kc.getCurrentUser();
  if (!cluster) return 'it has no current cluster';
  if (!user) return 'it has no current user';
  if (cluster.skipTLSVerify) return 'it skips TLS verification';
  if (cluster.caFile) return 'it names a CA file';
  if (user.exec || user.authProvider) return 'it runs a credential plugin';
  if (user.certFile || user.keyFile) return 'it names certificate files';
  if ((user as { tokenFile?: string }).tokenFile) return 'it names a token file';
  let url: URL;
  try {
    url = new URL(cluster.server);
  } catch {
    return `its server ${cluster.server} is not a URL`;
  }
  if (url.protocol !== 'https:') return `its server ${cluster.server} is not HTTPS`;
  return undefined;
}

/** The parts of a kubeconfig we use, and nothing else. */
function safeKubeConfig(value: string): KubeConfig {
  const raw = new KubeConfig();
  raw.loadFromString(value);
  const reason = unsafeKubeconfigReason(raw);
  if (reason) throw new Error(`the kubeconfig is refused: ${reason}`);
  const cluster = raw.getCurrentCluster();
  const user = raw.getCurrentUser();
  if (!cluster || !user) throw new Error('the kubeconfig is refused: no current cluster or user');
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      {
        name: 'workload',
        server: cluster.server,
        skipTLSVerify: false,
        ...(cluster.caData ? { caData: cluster.caData } : {}),
        ...(cluster.tlsServerName ? { tlsServerName: cluster.tlsServerName } : {}),
      },
    ],
    users: [
      {
        name: 'workload',
        ...(user.token ? { token: user.token } : {}),
        ...(user.certData ? { certData: user.certData } : {}),
        ...(user.keyData ? { keyData: user.keyData } : {}),
      },
    ],
    contexts: [{ name: 'workload', cluster: 'workload', user: 'workload' }],
    currentContext: 'workload',
  });
  return kc;
}

/** A Node from the wire, parsed at the edge (unknown fields kept); a malformed one is left out. */
const parseNode = (o: unknown): Node | undefined => {
  const r = NodeSchema.safeParse(o);
  return r.success ? r.data : undefined;
};

const FAILING_RECHECK_MS = 5_000;

export class WorkloadNodes {
  readonly #o: Required<Omit<WorkloadNodesOptions, 'log'>> & Pick<WorkloadNodesOptions, 'log'>;
  readonly #entries = new Map<string, Entry>();
  readonly #reads = new Map<string, Promise<SecretRead>>();
  readonly #sweep: ReturnType<typeof setInterval>;
  #started = 0;

  constructor(o: WorkloadNodesOptions) {
    this.#o = {
      maxClusters: DEFAULT_MAX_WORKLOAD_WATCHES,
      idleMs: 10 * 60_000,
      secretRecheckMs: 60_000,
      firstListWaitMs: 3_000,
      now: Date.now,
      ...o,
    };
    this.#sweep = setInterval(() => {
      void this.#stopIdle();
    }, 30_000);
    this.#sweep.unref();
  }

  /** How many workload watches run now. */
  get size(): number {
    return this.#entries.size;
  }

  /** Each workload watch: its key (`namespace/cluster`), the informer's state, since when it fails. */
  watches(): { key: string; id: number; state: string; failingSince?: number }[] {
    return [...this.#entries.values()].map((e) => ({
      key: e.key,
      id: e.id,
      state: e.informer.metrics().state,
      ...(e.failingSince !== undefined ? { failingSince: e.failingSince } : {}),
    }));
  }

  /** The Nodes of `namespace/cluster` for this user, joined to the cluster's Machines. */
  async view(
    principal: Principal,
    namespace: string,
    cluster: string,
    machines: readonly Machine[],
  ): Promise<ClusterNodesView> {
    return (await this.answer(principal, namespace, cluster, machines)).view;
  }

  /**
   * As `view`, with a version and summaries. Many browsers polling one cluster cost one join per
   * change: the join is kept per watch and redone only when the Nodes' resourceVersion or the
   * Machines' join keys (name, nodeRef, deletion, drain) differ.
   */
  async answer(
    principal: Principal,
    namespace: string,
    cluster: string,
    machines: readonly Machine[],
  ): Promise<NodesAnswer> {
    const view = await this.#view(principal, namespace, cluster);
    if (!('entry' in view)) return { view, summaries: () => view };
    const { entry, secret } = view;
    const machinesKey = machinesKeyOf(entry, machines);
    const resourceVersion = entry.informer.resourceVersion;
    let joined = entry.joined;
    if (joined?.resourceVersion !== resourceVersion || joined.machines !== machinesKey) {
      const nodes = entry.informer.list().flatMap((o) => {
        const node = parseNode(o);
        return node ? [node] : [];
      });
      joined = { resourceVersion, machines: machinesKey, nodes: nodeViewsOf(nodes, machines) };
      entry.joined = joined;
    }
    const j = joined;
    return {
      view: { status: 'ok', secret, nodes: j.nodes },
      version: `${entry.id}.${resourceVersion}.${machinesKey}`,
      summaries: () => {
        j.summaries ??= j.nodes.map(nodeSummaryOf);
        return { status: 'ok', secret, nodes: j.summaries };
      },
    };
  }

  /**
   * The workload cluster's `kube-system/cluster-autoscaler-status` for this user: the same rights,
   * Secret and reasons as its Nodes (the Nodes watch is started too, as `view` would).
   */
  async autoscalerStatus(
    principal: Principal,
    namespace: string,
    cluster: string,
  ): Promise<AutoscalerAnswer> {
    const view = await this.#view(principal, namespace, cluster);
    if (!('entry' in view)) return { view };
    const { entry, secret } = view;
    let watch = entry.autoscaler;
    if (!watch) {
      watch = this.#startAutoscaler(entry);
      entry.autoscaler = watch;
    }
    const { informer } = watch;
    if (!informer.hasSynced) {
      await Promise.race([
        informer.synced,
        new Promise((r) => setTimeout(r, this.#o.firstListWaitMs).unref()),
      ]);
    }
    if (informer.metrics().state === 'watching') watch.failingSince = undefined;
    if (watch.failingSince !== undefined) {
      return {
        view: {
          status: 'unreachable',
          secret,
          since: new Date(watch.failingSince).toISOString(),
          message: watch.lastError ?? 'the workload cluster does not answer',
        },
      };
    }
    if (!informer.hasSynced) {
      return {
        view: {
          status: 'pending',
          secret,
          message: 'the cluster autoscaler’s status is being read',
        },
      };
    }
    const found = informer
      .list()
      .find(
        (o) =>
          o.metadata.name === AUTOSCALER_STATUS_CONFIGMAP &&
          o.metadata.namespace === AUTOSCALER_STATUS_NAMESPACE,
      );
    const parsed = found === undefined ? undefined : ConfigMapSchema.safeParse(found);
    return {
      secret,
      configMap: parsed?.success ? parsed.data : undefined,
      version: `${String(entry.id)}.${informer.resourceVersion}`,
    };
  }

  #startAutoscaler(entry: Entry): AutoscalerWatch {
    const watch: AutoscalerWatch = {
      failingSince: undefined,
      lastError: undefined,
    } as AutoscalerWatch;
    watch.informer = new Informer<ConfigMap>(
      entry.kc,
      {
        group: '',
        version: 'v1',
        plural: 'configmaps',
        namespace: AUTOSCALER_STATUS_NAMESPACE,
        fieldSelector: `metadata.name=${AUTOSCALER_STATUS_CONFIGMAP}`,
      },
      {
        onError: (error) => {
          watch.failingSince ??= this.#o.now();
          watch.lastError = error.message;
          this.#o.log?.(
            `workload cluster ${entry.key}: autoscaler status: ${error.message}`,
            error,
          );
        },
        onRelist: () => {
          watch.failingSince = undefined;
          watch.lastError = undefined;
        },
        backoff: { initialMs: 500, maxMs: 5_000 },
      },
    );
    watch.informer.start();
    return watch;
  }

  /** Why there are no Nodes to show, or the synced watch to read them from. */
  async #view(
    principal: Principal,
    namespace: string,
    cluster: string,
  ): Promise<Exclude<ClusterNodesView, { status: 'ok' }> | { entry: Entry; secret: string }> {
    const name = kubeconfigSecretName(cluster);
    const secret = `${namespace}/${name}`;
    if (!(await this.#o.mayReadSecret(principal, namespace, name))) {
      return { status: 'forbidden', secret, message: `you may not read secret ${secret}` };
    }
    const key = `${namespace}/${cluster}`;
    const now = this.#o.now();
    let entry = this.#entries.get(key);
    const recheckAfter =
      entry?.failingSince !== undefined ? FAILING_RECHECK_MS : this.#o.secretRecheckMs;
    if (!entry || now - entry.secretReadAt >= recheckAfter) {
      const read = await this.#readSecret(principal, namespace, name);
      if (read.kind === 'forbidden') {
        return { status: 'forbidden', secret, message: `you may not read secret ${secret}` };
      }
      if (read.kind === 'missing') {
        await this.#stop(key);
        return {
          status: 'no-kubeconfig',
          secret,
          message: `secret ${secret} does not exist yet: the control plane is not initialized`,
        };
      }
      if (read.kind === 'invalid') {
        await this.#stop(key);
        return {
          status: 'unreachable',
          secret,
          since: new Date(now).toISOString(),
          message: read.message,
        };
      }
      entry = this.#entries.get(key);
      if (entry?.value === read.value) {
        entry.secretReadAt = now;
        entry.reader = principal;
      } else {
        try {
          entry = await this.#start(key, read.value, principal);
        } catch (error) {
          return {
            status: 'unreachable',
            secret,
            since: new Date(now).toISOString(),
            message: error instanceof Error ? error.message : String(error),
          };
        }
      }
    }
    entry.lastUsed = now;
    const { informer } = entry;
    if (!informer.hasSynced) {
      await Promise.race([
        informer.synced,
        new Promise((r) => setTimeout(r, this.#o.firstListWaitMs).unref()),
      ]);
    }
    if (informer.metrics().state === 'watching') entry.failingSince = undefined;
    if (entry.failingSince !== undefined) {
      return {
        status: 'unreachable',
        secret,
        since: new Date(entry.failingSince).toISOString(),
        message: entry.lastError ?? 'the workload cluster does not answer',
      };
    }
    if (!informer.hasSynced) {
      return {
        status: 'pending',
        secret,
        message: 'the workload cluster’s Nodes are being listed',
      };
    }
    return { entry, secret };
  }

  async close(): Promise<void> {
    clearInterval(this.#sweep);
    await Promise.all([...this.#entries.keys()].map((k) => this.#stop(k)));
  }

  /** Concurrent requests for one Secret share one read. */
  #readSecret(principal: Principal, namespace: string, name: string): Promise<SecretRead> {
    const key = `${principal.key}\n${namespace}/${name}`;
    const running = this.#reads.get(key);
    if (running) return running;
    const read = (async (): Promise<SecretRead> => {
      try {
        const res = await principal.client.request(
          'GET',
          `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`,
        );
        const data = (res.body as { data?: Record<string, unknown> } | undefined)?.data;
        const value = data?.value;
        if (typeof value !== 'string') {
          return { kind: 'invalid', message: `secret ${namespace}/${name} has no key value` };
        }
        return { kind: 'value', value: Buffer.from(value, 'base64').toString('utf8') };
      } catch (error) {
        if (error instanceof KubeApiError && error.status === 404) return { kind: 'missing' };
        if (error instanceof KubeApiError && error.status === 403) return { kind: 'forbidden' };
        throw error;
      } finally {
        this.#reads.delete(key);
      }
    })();
    this.#reads.set(key, read);
    return read;
  }

  /**
   * While `entry`'s watch fails: reads the Secret again every FAILING_RECHECK_MS with the
   * credential of whoever last read it, and restarts the watch on a new value, with no request
   * needed (the README's promise; issue 25: a watch kept the old port for minutes). Stops when
   * the watch is healthy or stopped, or the reader may no longer read the Secret.
   */
  #scheduleRecheck(entry: Entry): void {
    if (entry.recheck !== undefined || entry.reader === undefined) return;
    entry.recheck = setTimeout(() => {
      entry.recheck = undefined;
      void this.#recheck(entry);
    }, FAILING_RECHECK_MS);
    entry.recheck.unref();
  }

  async #recheck(entry: Entry): Promise<void> {
    const reader = entry.reader;
    if (entry.informer.metrics().state === 'watching') entry.failingSince = undefined;
    if (this.#entries.get(entry.key) !== entry || entry.failingSince === undefined || !reader) {
      return;
    }
    const [namespace = '', cluster = ''] = entry.key.split('/');
    let read: SecretRead | undefined;
    try {
      read = await this.#readSecret(reader, namespace, kubeconfigSecretName(cluster));
    } catch (error) {
      // The management cluster does not answer either: try again later.
      this.#o.log?.(`workload cluster ${entry.key}: the kubeconfig Secret cannot be read`, error);
    }
    if (this.#entries.get(entry.key) !== entry) return;
    if (read?.kind === 'forbidden') {
      entry.reader = undefined; // the next request's reader takes over
      return;
    }
    entry.secretReadAt = this.#o.now();
    if (read?.kind === 'value' && read.value !== entry.value) {
      try {
        await this.#start(entry.key, read.value, reader);
        this.#o.log?.(`workload cluster ${entry.key}: its kubeconfig Secret changed; reconnecting`);
        return;
      } catch (error) {
        this.#o.log?.(`workload cluster ${entry.key}: the new kubeconfig is refused`, error);
      }
    }
    // Still failing (checked again when it fires): try again in 5 s.
    this.#scheduleRecheck(entry);
  }

  async #start(key: string, value: string, reader?: Principal): Promise<Entry> {
    const kc = safeKubeConfig(value);
    await this.#stop(key);
    while (this.#entries.size >= this.#o.maxClusters) {
      const oldest = [...this.#entries.values()].sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (!oldest) break;
      await this.#stop(oldest.key);
    }
    const now = this.#o.now();
    // The entry is created before the informer so that its hooks can record failures on it.
    const entry = {
      id: ++this.#started,
      kc,
      autoscaler: undefined,
      joined: undefined,
      machinesKey: undefined,
      key,
      value,
      failingSince: undefined,
      lastError: undefined,
      lastUsed: now,
      secretReadAt: now,
      reader,
      recheck: undefined,
    } as Omit<Entry, 'informer'> as Entry;
    entry.informer = new Informer<Node>(
      kc,
      { group: '', version: 'v1', plural: 'nodes' },
      {
        onError: (error) => {
          entry.failingSince ??= this.#o.now();
          entry.lastError = error.message;
          this.#o.log?.(`workload cluster ${key}: ${error.message}`, error);
          this.#scheduleRecheck(entry);
        },
        onRelist: () => {
          entry.failingSince = undefined;
          entry.lastError = undefined;
        },
        // A short backoff ceiling: a restarted workload server comes back within seconds.
        backoff: { initialMs: 500, maxMs: 5_000 },
      },
    );
    this.#entries.set(key, entry);
    entry.informer.start();
    return entry;
  }

  async #stop(key: string): Promise<void> {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    clearTimeout(entry.recheck);
    entry.recheck = undefined;
    await Promise.all([entry.informer.stop(), entry.autoscaler?.informer.stop()]);
  }

  async #stopIdle(): Promise<void> {
    const now = this.#o.now();
    for (const e of [...this.#entries.values()]) {
      if (now - e.lastUsed > this.#o.idleMs) await this.#stop(e.key);
    }
  }
}
