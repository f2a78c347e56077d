import { resolveFenceposts } from '../intstr';
import { LABEL_DEPLOYMENT_NAME } from '../labels';
import type { Machine, MachineDeployment } from '../schemas/capi';
import type { IntOrString } from '../schemas/meta';
import type { RolloutImpact } from './plan';

/**
 * "Replaces N machines, at most M at a time" for a rolling update of `replicas` machines
 * (O-UPGRADE-*): M is the resolved maxSurge + maxUnavailable (Cluster API's fenceposts), bounded
 * by N; with maxSurge 0 (R-MD-3) it is maxUnavailable, one by one by default.
 */
export function rolloutImpact(
  replicas: number,
  maxSurge: IntOrString | undefined,
  maxUnavailable: IntOrString | undefined,
): RolloutImpact {
  if (replicas <= 0) return { replaces: 0, atATime: 0 };
  const f = resolveFenceposts(maxSurge, maxUnavailable, replicas);
  return {
    replaces: replicas,
    atATime: Math.max(1, Math.min(replicas, f.maxSurge + f.maxUnavailable)),
  };
}

/** rolloutImpact of a MachineDeployment as it is (its own replicas and strategy). */
export function rolloutImpactOf(md: MachineDeployment): RolloutImpact {
  const ru = md.spec?.strategy?.rollingUpdate;
  return rolloutImpact(md.spec?.replicas ?? 1, ru?.maxSurge, ru?.maxUnavailable);
}

/** The machines of a worker pool: those labelled with its MachineDeployment's name. */
export function machinesOfDeployment(mdName: string, machines: readonly Machine[]): Machine[] {
  return machines.filter((m) => m.metadata.labels?.[LABEL_DEPLOYMENT_NAME] === mdName);
}

export const machineIsDeleting = (m: Machine): boolean =>
  m.status?.phase === 'Deleting' || m.metadata.deletionTimestamp !== undefined;

/**
 * Whether a MachineDeployment is rolling out: its controller has not seen the latest spec yet,
 * or not every machine runs the current template.
 */
export function isRolloutInProgress(md: MachineDeployment): boolean {
  const replicas = md.spec?.replicas ?? 1;
  const s = md.status;
  if (!s) return false;
  if ((s.observedGeneration ?? 0) < (md.metadata.generation ?? 0)) return true;
  return (s.updatedReplicas ?? replicas) < replicas || (s.replicas ?? replicas) > replicas;
}
