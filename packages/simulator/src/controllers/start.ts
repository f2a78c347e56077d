import { InformerFactory, internStrings, stripManagedFields } from '@dcs/informer';
import {
  asHub,
  CONVERSION_DATA_ANNOTATION,
  DEFAULT_NAMESPACE,
  kindTable,
  type KindInfo,
  type ApiVersionChoice,
  LABEL_CONTROL_PLANE_NAME,
  LABEL_DEPLOYMENT_NAME,
  type Machine,
} from '@dcs/domain';
import type { SimClock } from '../logic/clock';
import type { FailureRule } from '../logic/failures';
import { Timeline } from '../logic/timeline';
import { DEFAULT_TIMINGS, type Timings } from '../logic/timings';
import { Caches, WATCHED_KINDS } from '../runtime/caches';
import { KubeClient, type WriteCounters } from '../runtime/client';
import type { ControllerKubeConfig } from '../runtime/kubeconfig';
import type { Context } from '../runtime/context';
import { EventRecorder } from '../runtime/events';
import { Manager, type ControllerMetrics } from '../runtime/manager';
import { Writer } from '../runtime/writer';
import { clusterController, dcsClusterController } from './cluster';
import { dcsMachineController } from './dcsmachine';
import { ipPoolController } from './ippool';
import { kcpController } from './kcp';
import { kubeadmConfigController } from './kubeadmconfig';
import { machineController } from './machine';
import { machineDeploymentController } from './machinedeployment';
import { machineSetController } from './machineset';
import { machineHealthCheckController } from './machinehealthcheck';
import { Kubelet } from './kubelet';
import { autoscalerStatusController } from '../workload/autoscaler-status';
import { WorkloadClusters } from '../workload/clusters';
import { DEFAULT_WORKLOAD_MAX_NODES, WorkloadSync, workloadController } from '../workload/pods';
import { DEFAULT_PROVIDER_VERSION, ensureProviderDeployment } from './provider';

/**
 * The simulated controllers: Cluster API core, the kubeadm bootstrap and control-plane providers,
 * and the DCS infrastructure provider, as ordinary API clients of any API server that has the
 * Cluster API and DCS CRDs.
 */

/** The command that prints the CRDs a server lacks (`src/cli/crds.ts`); FILE: its kubeconfig. */
export const INSTALL_MISSING_CRDS =
  'pnpm --silent sim:crds --kubeconfig FILE | kubectl --kubeconfig FILE apply --server-side -f -';

/** The API server lacks CRDs the controllers watch. */
export class MissingKindsError extends Error {
  constructor(readonly kinds: readonly KindInfo[]) {
    const names = kinds.map((k) => `${k.plural}.${k.group}/${k.version} (${k.kind})`).join(', ');
    const kubeadm = kinds.some(
      (k) => k.group.startsWith('bootstrap.') || k.group.startsWith('controlplane.'),
    );
    super(
      `the API server does not serve ${names}, which the controllers need: its CRD is not installed. ` +
        `Install what is missing with: ${INSTALL_MISSING_CRDS}` +
        (kubeadm
          ? ' (on a real Cluster API, the kubeadm providers bring theirs: clusterctl init --bootstrap kubeadm --control-plane kubeadm)'
          : ''),
    );
    this.name = 'MissingKindsError';
  }
}

export interface ControllerOptions {
  /**
   * The version of each Cluster API group to speak (issue 23), as the controllers of one release
   * do (`capiVersionsOf`); by default the best one discovery says is served.
   */
  capiVersions?: ApiVersionChoice;
  /** The DCS provider version its Deployment reports (default 1.0.16). */
  providerVersion?: string;
  /** Seeds every random choice (names, durations, failure shares); default 1. */
  randomSeed?: number;
  /** Failure rules (`--fail`); annotations work without them. */
  failures?: readonly FailureRule[];
  /** Watch one namespace only (default: all). */
  namespace?: string;
  /** Where the provider's Deployment lives (default cpaas-system). */
  providerNamespace?: string;
  /** Overrides of the lifecycle durations (simulated seconds). */
  timings?: Partial<Timings>;
  /** Reconcile everything again this often, in real seconds (default 300; 0: never). */
  resyncSeconds?: number;
  /** Write core/v1 Events (default true). */
  events?: boolean;
  /**
   * Workload clusters (an API server per Cluster serving the Nodes the simulated kubelet
   * registers, and the `<cluster>-kubeconfig` Secret); false: none, Machines run without Nodes.
   */
  workloadClusters?: false | { maxClusters?: number; maxWorkloadNodes?: number };
  log?: (line: string) => void;
}

export interface StartControllersInput {
  /** client-node's `KubeConfig` or `loadKubeConfig`'s lighter one. */
  kubeconfig: ControllerKubeConfig;
  clock: SimClock;
  options?: ControllerOptions;
}

export interface RunningControllers {
  /** Resolves when no controller has queued work and every Event is written (simulated timers may still be pending). */
  idle(): Promise<void>;
  metrics(): WriteCounters & {
    controllers: ControllerMetrics[];
    /** Keys each watch woke (`controller<Kind`). */
    wakes: Record<string, number>;
    events: { emitted: number; filtered: number; dropped: number; failed: number };
    /** Machines per MachineDeployment (or KubeadmControlPlane) and phase, from the cache. */
    phases: Record<string, Record<string, number>>;
    /** Per kind: own writes the informer has not delivered yet, and those it had delivered before the response. */
    caches: Record<string, { pending: number; alreadySeen: number }>;
  };
  /** The workload clusters the simulated kubelets register Nodes in (absent when off). */
  workload?: WorkloadClusters;
  stop(): Promise<void>;
}

/**
 * Machines per MachineDeployment (or KubeadmControlPlane) and phase, kept up to date from the
 * informer's events: the benchmark asks for them five times a second, and counting 5,000 cached
 * Machines each time was 0.8 % of the controllers' CPU.
 */
function machinePhases(caches: Caches): () => Record<string, Record<string, number>> {
  const counts = new Map<string, Map<string, number>>();
  const bump = (m: Machine, by: number) => {
    const pool =
      m.metadata.labels?.[LABEL_DEPLOYMENT_NAME] ??
      m.metadata.labels?.[LABEL_CONTROL_PLANE_NAME] ??
      '';
    const phase = m.status?.phase ?? 'Pending';
    let byPhase = counts.get(pool);
    if (!byPhase) counts.set(pool, (byPhase = new Map<string, number>()));
    const n = (byPhase.get(phase) ?? 0) + by;
    if (n !== 0) byPhase.set(phase, n);
    else {
      byPhase.delete(phase);
      if (byPhase.size === 0) counts.delete(pool);
    }
  };
  caches.get('Machine').informer.addEventHandler({
    add: (m) => {
      bump(m, 1);
    },
    update: (m, old) => {
      bump(old, -1);
      bump(m, 1);
    },
    delete: (m) => {
      bump(m, -1);
    },
  });
  return () =>
    Object.fromEntries([...counts].map(([pool, byPhase]) => [pool, Object.fromEntries(byPhase)]));
}

export async function startControllers(input: StartControllersInput): Promise<RunningControllers> {
  const o = input.options ?? {};
  const log = o.log ?? ((line: string) => process.stderr.write(`controllers: ${line}\n`));
  const client = new KubeClient(input.kubeconfig);
  await ensureProviderDeployment(
    client,
    o.providerVersion ?? DEFAULT_PROVIDER_VERSION,
    o.providerNamespace ?? DEFAULT_NAMESPACE,
  );

  // Issue 23: the Cluster API kinds are spoken in the version the cluster serves (discovery),
  // the controllers' caches and logic keep the hub.
  if (o.capiVersions) client.versions = o.capiVersions;
  else await client.discoverVersions();
  // Issue 25: a kind the server does not serve (its CRD not installed) is named once, here, with
  // the command that installs it, instead of an informer retrying a 404 forever.
  const missing = await client.missingKinds(WATCHED_KINDS.map((k) => kindTable[k]));
  if (missing.length > 0) throw new MissingKindsError(missing);
  // The conversion-data annotation (the object again, as the served version has it) differs in
  // every version: interned, each would stay in the table after its object is gone (issue 25,
  // item 13: most of the controllers' growth per pool created and deleted).
  const intern = internStrings({ uniqueKeys: [CONVERSION_DATA_ANNOTATION] });
  const factory = new InformerFactory(input.kubeconfig, {
    onError: (error, info) => {
      log(`informer ${info.resource} (${info.phase}): ${error.message}`);
    },
    // No controller reads managedFields (updates leave them out): the caches do not keep them,
    // as controller-runtime's TransformStripManagedFields. They were a third or more of every
    // cached Machine, DCSMachine and KubeadmConfig. The rest is mostly copies of the same
    // strings (a pool's machines come from one template): one copy each (internStrings).
    transform: (o, cached) => intern(stripManagedFields(asHub(o)), cached),
  });
  const caches = new Caches(factory, o.namespace, (info) => client.at(info));
  for (const kind of WATCHED_KINDS) caches.get(kind);
  const phases = machinePhases(caches);
  const events = new EventRecorder(client, input.clock, { enabled: o.events ?? true });
  const clock = input.clock;
  const timeline = new Timeline(
    (wallMs) => clock.simAt(wallMs),
    () => clock.wallNow(),
  );
  const ctx: Context = {
    clock,
    timeline,
    caches,
    client,
    writer: new Writer(client, caches, clock, timeline),
    events,
    log,
    options: {
      randomSeed: o.randomSeed ?? 1,
      providerVersion: o.providerVersion ?? DEFAULT_PROVIDER_VERSION,
      failures: o.failures ?? [],
      timings: { ...DEFAULT_TIMINGS, ...(o.timings ?? {}) },
    },
  };
  const workload =
    o.workloadClusters === false ? undefined : new WorkloadClusters({ ...o.workloadClusters, log });
  const maxWorkloadNodes =
    (o.workloadClusters ? o.workloadClusters.maxWorkloadNodes : undefined) ??
    DEFAULT_WORKLOAD_MAX_NODES;
  const synced = new WorkloadSync();
  const kubelet = workload ? new Kubelet(ctx, workload, maxWorkloadNodes, synced) : undefined;
  ctx.kubelet = kubelet;
  const manager = new Manager(ctx, factory, caches, (o.resyncSeconds ?? 300) * 1000);
  for (const make of [
    clusterController,
    dcsClusterController,
    machineDeploymentController,
    machineSetController,
    machineController,
    kubeadmConfigController,
    kcpController,
    dcsMachineController,
    ipPoolController,
  ]) {
    manager.add(make(ctx));
  }
  // Issue 26 item 1: health checks read the workload clusters' Nodes (or, without them, the Node
  // each kubelet would report).
  manager.add(machineHealthCheckController(ctx, workload));
  if (kubelet && workload) {
    manager.add(kubelet.controller());
    manager.add(kubelet.clusterController());
    // Issue 26 item 2: the cluster autoscaler's status ConfigMap where a pool has bounds.
    manager.add(autoscalerStatusController(ctx, workload));
    // Issue 26 item 6: Pods, their controllers and budgets, so that drains really evict.
    manager.add(workloadController(ctx, workload, { maxNodes: maxWorkloadNodes, synced }));
  }
  // WaitForCacheSync: the events of the initial lists are queued, but nothing is reconciled
  // before every informer the controllers read has its full list.
  await caches.synced();
  manager.start();

  return {
    ...(workload ? { workload } : {}),
    idle: async () => {
      await manager.idle();
      await events.flush();
    },
    metrics: () => ({
      controllers: manager.metrics(),
      wakes: Object.fromEntries(manager.wakes),
      ...client.counters,
      events: { ...events.counters },
      phases: phases(),
      caches: Object.fromEntries(
        WATCHED_KINDS.map((k) => [
          k,
          { pending: caches.get(k).pendingWrites, alreadySeen: caches.get(k).alreadySeen },
        ]),
      ),
    }),
    stop: async () => {
      await manager.stop();
      await events.flush().catch(() => undefined);
      events.stop();
      client.close();
      await workload?.close();
    },
  };
}
