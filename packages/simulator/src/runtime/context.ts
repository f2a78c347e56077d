import type { Machine, ObjectOf } from '@dcs/domain';
import type { SimClock } from '../logic/clock';
import type { Timeline } from '../logic/timeline';
import type { FailureRule } from '../logic/failures';
import type { EvictionResult } from '../logic/machine-status';
import type { Timings } from '../logic/timings';
import type { Caches, WatchedKind } from './caches';
import type { KubeClient } from './client';
import type { EventRecorder } from './events';
import type { ReconcileResult } from './queue';
import type { Writer } from './writer';

/** What every controller gets: the clock, the shared caches, the writer, events and the options. */
export interface SimulationOptions {
  randomSeed: number;
  /** The DCS provider version its Deployment reports (R-VER-1, R-VER-2). */
  providerVersion: string;
  failures: readonly FailureRule[];
  timings: Timings;
}

export interface Context {
  clock: SimClock;
  /** When, in simulated time, the transitions this process wrote happened. */
  timeline: Timeline;
  caches: Caches;
  writer: Writer;
  client: KubeClient;
  events: EventRecorder;
  options: SimulationOptions;
  log: (line: string) => void;
  /** The workload clusters' kubelets; absent when workload clusters are off. */
  kubelet?: Kubelets;
}

/**
 * What the Machine controller asks of the workload clusters' kubelets (`controllers/kubelet.ts`
 * implements it): declared here, with the rest of what a controller is given.
 */
export interface Kubelets {
  /** Registers (or refreshes) the Node of a Machine under `name`; its uid, or undefined without a workload cluster. */
  register(m: Machine, name: string, o?: { create?: boolean }): Promise<string | undefined>;
  /** Deletes the Machine's Node (Cluster API's deleteNode, after the drain). */
  remove(m: Machine): Promise<void>;
  /**
   * One round of the drain of the Machine's Node in its workload cluster (`workload/drain.ts`):
   * 'done', or what was evicted and refused; undefined when the cluster has no workload (no
   * workload API server, or more Nodes than the workload's bound), where the drain is timed;
   * 'not-synced' while the Node's workload is not written yet (a restarted simulator).
   */
  drain(
    m: Machine,
    nodeName: string,
    /** The Machine has the drain-stuck failure: the drain waits for its budget. */
    stuck?: boolean,
  ): Promise<EvictionResult | 'done' | 'not-synced' | undefined>;
}

export interface Watch {
  kind: WatchedKind;
  /** Keys (`namespace/name`) of the controller's objects to reconcile when this object changes. */
  map: (obj: never) => readonly string[];
}

/** A typed watch: `watch('Machine', (m) => [...])`. */
export function watch<K extends WatchedKind>(
  kind: K,
  map: (obj: ObjectOf<K>) => readonly string[],
): Watch {
  return { kind, map };
}

export interface Controller {
  /** The controller's name in logs and metrics, e.g. `machineset`. */
  name: string;
  /** The kind it reconciles; its changes enqueue the object's own key. */
  primary: WatchedKind;
  watches: readonly Watch[];
  concurrency?: number;
  /**
   * Simulated ms of the queue's batch window (QueueOptions.batchMs), for controllers that
   * summarize many objects; none on a manual clock, at most MAX_BATCH_REAL_MS of real time.
   */
  batchSimMs?: number;
  /** See QueueOptions.isPriority. */
  isPriority?: (key: string) => boolean;
  /**
   * controller-runtime's update predicate on the primary kind: an update of the primary object
   * enqueues it only when this says the change matters to the controller (e.g. the kubelet
   * ignores Machine changes that cannot change its Node). Adds, deletes, watches and the resync
   * are not filtered, so a predicate saves reconciles, never a decision.
   */
  primaryChanged?: (now: never, before: never) => boolean;
  /**
   * Event sources outside the management cluster's informers (a workload cluster's Pods): each
   * is given the queue's `enqueue` and returns what stops it.
   */
  sources?: readonly ((enqueue: (key: string) => void) => () => void)[];
  reconcile(key: string): Promise<ReconcileResult | undefined>;
}

export function splitKey(key: string): { namespace: string | undefined; name: string } {
  const i = key.indexOf('/');
  return i < 0
    ? { namespace: undefined, name: key }
    : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}
