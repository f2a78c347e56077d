import type { KindName } from '../kinds';
import { ANNOTATION_PAUSED } from '../labels';
import type { RuleId } from './issue';

/**
 * Pausing reconciliation (issue 26, O-PAUSE / O-RESUME). Cluster API's controllers skip an object
 * whose Cluster has `spec.paused: true` or which carries the `cluster.x-k8s.io/paused` annotation
 * (upstream's `util/paused` EnsurePausedCondition): they only keep its v1beta2 `Paused` condition
 * current (True, reason `Paused`, the message naming why; False, reason `NotPaused`). The rules
 * this console adds, project-defined ids (DOMAIN.md names no rule for pausing):
 *
 * - **R-PAUSE-1** A change planned to an object that is paused, or to any object of a paused
 *   cluster, is written, but nothing happens (no machine is created, replaced or deleted) until
 *   it is resumed: every such plan says so, as a warning.
 * - **R-PAUSE-2** Resuming one object of a paused cluster does not make Cluster API reconcile it:
 *   it stays paused through its cluster (a warning on O-RESUME of a pool).
 * - **R-PAUSE-3** Pausing an object being deleted stops its deletion where it is (its machines
 *   are not drained or removed, its finalizer stays) until it is resumed (a warning).
 */
export const R_PAUSE_NOTHING_HAPPENS: RuleId = 'R-PAUSE-1';
export const R_PAUSE_CLUSTER_STILL_PAUSED: RuleId = 'R-PAUSE-2';
export const R_PAUSE_DELETION_STOPS: RuleId = 'R-PAUSE-3';

/** An object the console can pause by itself (a pool's MachineDeployment, the control plane…). */
export interface PausedObject {
  kind: KindName;
  name: string;
}

/** What is paused in a cluster now (the BFF's ValidationContext carries it, R-PAUSE-1). */
export interface PauseContext {
  /** The Cluster's `spec.paused`. */
  cluster: boolean;
  /** The cluster's objects carrying the paused annotation. */
  objects: readonly PausedObject[];
}

/** `annotations.HasPaused`: the annotation is there, whatever its value. */
export const hasPausedAnnotation = (o: {
  metadata: { annotations?: Record<string, string> | undefined };
}): boolean => o.metadata.annotations?.[ANNOTATION_PAUSED] !== undefined;
