/**
 * What the benchmark's processes share: the IPC messages between the orchestrator, the server
 * process and the load processes, the Machine the load is made of, and percentile arithmetic.
 */

import { monitorEventLoopDelay } from 'node:perf_hooks';

export const BENCH_NAMESPACE = 'bench';
export const WATCH_NAMESPACE = 'bench-watch';
export const BENCH_TOKEN = 'bench-token';
export const MACHINES = '/apis/cluster.x-k8s.io/v1beta1/namespaces';

/** Orchestrator → server process. */
export type ServerCommand =
  | { id: number; type: 'phase-start'; phase: string }
  | { id: number; type: 'phase-end' }
  | { id: number; type: 'memory' }
  | { id: number; type: 'close' };

/** Server process → orchestrator. */
export type ServerReply =
  | { type: 'ready'; url: string }
  | { id: number; type: 'ok' }
  | {
      id: number;
      type: 'phase';
      cpuMs: number;
      profile?: string;
      /** The server's event-loop delay during the phase (perf_hooks), p99 and max, in ms. */
      loopDelay: LoopDelay;
    }
  | { id: number; type: 'memory'; rss: number; heapUsed: number; external: number };

export interface CreateTask {
  role: 'create';
  url: string;
  namespace: string;
  from: number;
  to: number;
  clients: number;
}
export interface ListTask {
  role: 'list';
  url: string;
  namespace: string;
  runs: number;
  expectItems: number;
}
export interface WatchReadersTask {
  role: 'readers';
  url: string;
  namespace: string;
  /** The watchers of this process are numbered from `first` (for messages). */
  first: number;
  watchers: number;
  events: number;
  /** The resourceVersion to watch from: every reader process sees the same events. */
  resourceVersion: string;
}
export interface WatchWriterTask {
  role: 'writer';
  url: string;
  namespace: string;
  lanes: number;
  events: number;
  rate: number;
}
export type LoadTask = CreateTask | ListTask | WatchReadersTask | WatchWriterTask;

export interface CreateResult {
  role: 'create';
  seconds: number;
  created: number;
}
export interface ListResult {
  role: 'list';
  ms: number[];
  bytes: number;
  items: number;
}
/** Event-loop delay of a process over a phase (perf_hooks.monitorEventLoopDelay), in ms. */
export interface LoopDelay {
  p99: number;
  max: number;
}

export interface ReadersResult {
  role: 'readers';
  /** How late this process's event loop ran: a reader that lags stamps its events late. */
  loopDelay: LoopDelay;
  /** Every watcher got every sequence number once, in resourceVersion order. */
  complete: boolean;
  minReceived: number;
  problems: string[];
  /** receive − send of every event at every watcher of the process, in ms. */
  latencies: Float64Array;
}
export interface WriterResult {
  role: 'writer';
  achievedRate: number;
  /** Sends that left more than 10 ms after their slot (the writer or the server fell behind). */
  late: number;
  /**
   * Send → answer of every PATCH, in ms: the server's queueing and handling of the write that
   * makes an event (its answer is written in the turn that commits it, before the watch flush).
   */
  roundTrips: Float64Array;
}
/** With the CPU time the load process used, to tell a starved client from a slow server. */
export type LoadResult = (CreateResult | ListResult | ReadersResult | WriterResult) & {
  cpuMs?: number;
};

/** Load process → orchestrator: `ready` once watches are open, then the result. */
export type LoadMessage =
  { type: 'ready' } | { type: 'result'; result: LoadResult } | { type: 'error'; message: string };

/** Orchestrator → readers: the writer is done; finish when everything arrived or at the deadline. */
export interface ReadersStop {
  type: 'stop';
  graceMs: number;
}

export function machine(name: string, namespace: string) {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name,
      namespace,
      labels: {
        'cluster.x-k8s.io/cluster-name': 'c1',
        'cluster.x-k8s.io/deployment-name': `md-${name.length % 7}`,
      },
      // ~3 KB per object, like a real Machine with its conditions and annotations.
      annotations: { 'bench/padding': 'x'.repeat(2600) },
    },
    spec: {
      clusterName: 'c1',
      version: 'v1.32.0',
      providerID: `dcs://${name}`,
      bootstrap: { dataSecretName: `${name}-bootstrap` },
    },
  };
}

export function machineName(i: number): string {
  return `m-${String(i).padStart(6, '0')}`;
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Starts measuring this process's event-loop delay; the function returns p99 and max so far. */
export function loopDelayMonitor(): () => LoopDelay {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  return () => {
    h.disable();
    return { p99: h.percentile(99) / 1e6, max: h.max / 1e6 };
  };
}

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}
