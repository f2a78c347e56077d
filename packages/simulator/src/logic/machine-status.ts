import type { Condition, Machine, MachinePhase } from '@dcs/domain';
import { withSummary } from './conditions';

/** A Machine's phase and Ready summary as Cluster API v1.10 computes them (v1beta1). */

export const BOOTSTRAP_READY = 'BootstrapReady';
export const INFRASTRUCTURE_READY = 'InfrastructureReady';
export const NODE_HEALTHY = 'NodeHealthy';
export const DRAINING_SUCCEEDED = 'DrainingSucceeded';
export const HEALTH_CHECK_SUCCEEDED = 'HealthCheckSucceeded';
export const OWNER_REMEDIATED = 'OwnerRemediated';

/** machine_controller_phases.go reconcilePhase: later rules win. */
export function machinePhase(m: Machine): MachinePhase {
  const s = m.status ?? {};
  let phase: MachinePhase = (s.phase as MachinePhase | undefined) ?? 'Pending';
  if (s.bootstrapReady && !s.infrastructureReady) phase = 'Provisioning';
  if (m.spec?.providerID) phase = 'Provisioned';
  if (s.nodeRef && s.infrastructureReady) phase = 'Running';
  if (s.failureReason || s.failureMessage) phase = 'Failed';
  if (m.metadata.deletionTimestamp) phase = 'Deleting';
  return phase;
}

/**
 * The Machine's Ready: infrastructure first, then bootstrap, then health checks and draining,
 * with "n of 2 completed" while the machine is being provisioned (no providerID yet).
 */
export function withMachineReady(
  m: Machine,
  conditions: readonly Condition[],
  nowISO: string,
): Condition[] {
  return withSummary(
    conditions,
    {
      conditions: [
        INFRASTRUCTURE_READY,
        BOOTSTRAP_READY,
        HEALTH_CHECK_SUCCEEDED,
        OWNER_REMEDIATED,
        DRAINING_SUCCEEDED,
      ],
      stepCounterIf: !m.metadata.deletionTimestamp && !m.spec?.providerID,
      stepCounterIfOnly: [BOOTSTRAP_READY, INFRASTRUCTURE_READY],
    },
    nowISO,
  );
}
