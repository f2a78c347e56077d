import { KubeConfig } from '@kubernetes/client-node';
import {
  apiVersionOf,
  kindTable,
  type Condition,
  type ObjectOf,
  type ParsedKind,
} from '@dcs/domain';
import type { CapiRelease } from '../../src/capi/releases';
import { startEmbeddedCluster, type EmbeddedCluster } from '../../src/embedded';
import { createClock, type SimClock } from '../../src/logic/clock';
import {
  startControllers,
  type ControllerOptions,
  type RunningControllers,
} from '../../src/controllers/start';
import type { Obj } from '../../src/seed/objects';
import { KubeClient, type PatchType } from '../../src/runtime/client';

/**
 * A test's management cluster: the embedded API server (HTTPS on 127.0.0.1, a free port) with the
 * simulated controllers as API clients, on a fast simulated clock. Tests act through `api` the
 * way kubectl would (create, merge/JSON patch, delete) and read back with `get`/`list`.
 */

export interface Sim {
  cluster: EmbeddedCluster;
  kubeconfig: KubeConfig;
  clock: SimClock;
  controllers: RunningControllers;
  api: EmbeddedCluster['server']['client'];
  create(...objs: Obj[]): Promise<void>;
  /** Requests as kubectl sends them, over HTTPS with the operator's token. */
  kubectl: {
    create(obj: Obj): Promise<unknown>;
    patch(kind: ParsedKind, name: string, type: PatchType, body: unknown): Promise<unknown>;
    annotate(
      kind: ParsedKind,
      name: string,
      annotations: Record<string, string | null>,
    ): Promise<unknown>;
    delete(kind: ParsedKind, name: string): Promise<unknown>;
  };
  /** Reasons of the Events about an object, oldest first. */
  events(
    name: string,
    kind?: string,
  ): { reason: string; message: string; type: string; count: number }[];
  get<K extends ParsedKind>(kind: K, name: string, namespace?: string): ObjectOf<K> | undefined;
  list<K extends ParsedKind>(kind: K, namespace?: string): ObjectOf<K>[];
  /** A one-line-per-object picture of the clusters, for failure messages. */
  dump(): string;
  logs: string[];
  /** Polls (real time) until `check` returns a value other than undefined/false. */
  until<T>(what: string, check: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

export const NS = 'cpaas-system';

const conditionsText = (conditions: readonly Condition[] | undefined) =>
  (conditions ?? [])
    .map((c) => `${c.type}=${c.status}${c.reason ? `(${c.reason})` : ''}`)
    .join(' ');

export async function startSim(
  o: { timeScale?: number; controllers?: ControllerOptions; capiRelease?: CapiRelease } = {},
): Promise<Sim> {
  const cluster = await startEmbeddedCluster(o.capiRelease ? { capiRelease: o.capiRelease } : {});
  const kubeconfig = new KubeConfig();
  kubeconfig.loadFromString(cluster.kubeconfig);
  const clock = createClock({ timeScale: o.timeScale ?? 600 });
  const logs: string[] = [];
  const controllers = await startControllers({
    kubeconfig,
    clock,
    options: { log: (l) => logs.push(l), ...(o.controllers ?? {}) },
  });
  const api = cluster.server.client;
  const get = <K extends ParsedKind>(kind: K, name: string, namespace = NS) =>
    api.get({ apiVersion: apiVersionOf(kindTable[kind]), kind, name, namespace }) as
      ObjectOf<K> | undefined;
  const list = <K extends ParsedKind>(kind: K, namespace = NS) =>
    api.list(apiVersionOf(kindTable[kind]), kind, namespace) as ObjectOf<K>[];
  const dump = () =>
    [
      ...list('Cluster').map(
        (c) =>
          `Cluster ${c.metadata.name ?? ''}: ${c.status?.phase ?? ''} ${conditionsText(c.status?.conditions)}`,
      ),
      ...list('KubeadmControlPlane').map(
        (k) =>
          `KCP ${k.metadata.name ?? ''}: replicas=${String(k.status?.replicas)} ready=${String(k.status?.readyReplicas)} ${conditionsText(k.status?.conditions)}`,
      ),
      ...list('MachineDeployment').map(
        (d) =>
          `MD ${d.metadata.name ?? ''}: spec=${String(d.spec?.replicas)} ${JSON.stringify({ ...d.status, conditions: undefined })}`,
      ),
      ...list('MachineSet').map(
        (s) =>
          `MS ${s.metadata.name ?? ''}: spec=${String(s.spec?.replicas)} status=${String(s.status?.replicas)} avail=${String(s.status?.availableReplicas)}`,
      ),
      ...list('Machine').map(
        (m) =>
          `Machine ${m.metadata.name ?? ''}: ${m.status?.phase ?? ''} ${conditionsText(m.status?.conditions)}`,
      ),
      ...list('DCSMachine').map(
        (d) =>
          `DCSMachine ${d.metadata.name ?? ''}: ${d.status?.vmState ?? '-'} ip=${d.status?.networkConfig?.ip ?? '-'} ${conditionsText(d.status?.conditions)}`,
      ),
    ].join('\n');
  const http = new KubeClient(kubeconfig, 'kubectl-client-side-apply');
  const kubectl: Sim['kubectl'] = {
    create: (obj) => http.create(kindTable[obj.kind as ParsedKind], obj),
    patch: (kind, name, type, body) => http.patch(kindTable[kind], NS, name, type, body),
    annotate: (kind, name, annotations) =>
      http.patch(kindTable[kind], NS, name, 'merge', { metadata: { annotations } }),
    delete: (kind, name) => http.delete(kindTable[kind], NS, name),
  };
  const events = (name: string, kind?: string) =>
    list('Event')
      .filter((e) => e.involvedObject.name === name && (!kind || e.involvedObject.kind === kind))
      .sort((a, b) => (a.firstTimestamp ?? '').localeCompare(b.firstTimestamp ?? ''))
      .map((e) => ({
        reason: e.reason ?? '',
        message: e.message ?? '',
        type: e.type ?? '',
        count: e.count ?? 1,
      }));
  const sim: Sim = {
    cluster,
    kubeconfig,
    clock,
    controllers,
    api,
    async create(...objs) {
      for (const obj of objs) await api.create(obj);
    },
    kubectl,
    events,
    get,
    list,
    logs,
    dump,
    async until<T>(what: string, check: () => T | undefined | false, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const v = check();
        if (v !== undefined && v !== false) return v;
        if (Date.now() > deadline) {
          throw new Error(
            `timed out waiting for ${what}\n${dump()}\n${JSON.stringify(controllers.metrics())}\ncontroller log tail:\n${logs.slice(-20).join('\n')}`,
          );
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async close() {
      await controllers.stop();
      http.close();
      clock.stop();
      await cluster.close();
    },
  };
  return sim;
}
