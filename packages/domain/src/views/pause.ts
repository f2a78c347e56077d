import { hasPausedAnnotation } from '../rules/pause';
import type { Cluster } from '../schemas/capi';
import type { V1Beta2Condition } from '../schemas/meta';

/**
 * Why an object is paused (issue 26, R-PAUSE-1), for the Paused chip of every card it affects and
 * for the Pause / Resume action: what the console wrote (the Cluster's `spec.paused`, the object's
 * own annotation) and what Cluster API says (its v1beta2 `Paused` condition, whose message names
 * the cause: "Cluster spec.paused is set to true, MachineDeployment has the
 * cluster.x-k8s.io/paused annotation").
 */
export interface PauseView {
  /** Paused by any cause: the Cluster's spec.paused, the object's annotation, MD spec.paused. */
  paused: boolean;
  /** The Cluster's `spec.paused`. */
  byCluster: boolean;
  /** The object's own `cluster.x-k8s.io/paused` annotation (what O-RESUME of a pool removes). */
  byAnnotation: boolean;
  /** The v1beta2 Paused condition as the controller last wrote it, when there is one. */
  condition?: { status: string; reason?: string; message?: string };
}

export function pauseView(
  object: {
    metadata: { annotations?: Record<string, string> | undefined };
    status?: { v1beta2?: { conditions?: readonly V1Beta2Condition[] } } | undefined;
  },
  cluster: Cluster | undefined,
  /** A cause of the object's own (a MachineDeployment's v1beta1 `spec.paused`). */
  own = false,
): PauseView {
  const byCluster = cluster?.spec?.paused === true;
  const byAnnotation = hasPausedAnnotation(object);
  const c = object.status?.v1beta2?.conditions?.find((x) => x.type === 'Paused');
  return {
    paused: byCluster || byAnnotation || own,
    byCluster,
    byAnnotation,
    ...(c
      ? {
          condition: {
            status: c.status,
            ...(c.reason ? { reason: c.reason } : {}),
            ...(c.message ? { message: c.message } : {}),
          },
        }
      : {}),
  };
}
