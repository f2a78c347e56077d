/**
 * English texts of everything a plan says: step descriptions, undo steps, effects and the
 * planner's own issues. Keys are stable; `src/i18n` adds the zh-CN texts for the same keys.
 * Placeholders are `{name}`.
 */
export const planMessages = {
  // steps
  'plan.step.createIpPool': 'Create IP pool {name} with {count} entries',
  'plan.step.appendIpPool':
    'Append {count} entries to IP pool {name}, keeping its {existing} entries',
  'plan.step.editIpPool':
    'Edit IP pool {name}: {appended} appended, {removed} removed, {updated} updated (existing entries kept as they are)',
  'plan.step.createMachineTemplate': 'Create machine template {name}',
  'plan.step.cloneMachineTemplate':
    'Create machine template {name} as a copy of {from} with your changes',
  'plan.step.createBootstrapTemplate': 'Create bootstrap template {name}',
  'plan.step.cloneBootstrapTemplate':
    'Create bootstrap template {name} as a copy of {from} with your changes',
  'plan.step.createMachineDeployment':
    'Create MachineDeployment {name} with {replicas} replicas of Kubernetes {version}',
  'plan.step.scale': 'Change the replicas of {name} from {from} to {to}',
  'plan.step.markMachine': 'Mark machine {name} for deletion',
  'plan.step.scaleDownMarked':
    'Lower the replicas of {name} from {from} to {to}, exactly the {count} marked machines',
  'plan.step.switchMachineTemplate': 'Point {name} at machine template {template} (was {from})',
  'plan.step.switchBootstrapTemplate': 'Point {name} at bootstrap template {template} (was {from})',
  'plan.step.upgradeWorkers':
    'Upgrade {name} from {from} to {to}: machine template {template}{bootstrap}, in one change',
  'plan.step.upgradeControlPlane':
    'Upgrade control plane {name} from {from} to {to} with machine template {template}, in one change',
  'plan.step.deleteMachineDeployment':
    'Delete MachineDeployment {name}; its {count} machines are drained and deleted. This cannot be undone',
  'plan.step.deleteMachineTemplate': 'Delete machine template {name}, used by no other pool',
  'plan.step.deleteBootstrapTemplate': 'Delete bootstrap template {name}, used by no other pool',
  'plan.step.deleteIpPool':
    'Delete IP pool {name}, used by no other pool, once the machines of {pool} are gone',
  // undo
  'plan.undo.delete': 'Delete {kind} {name}, created by this operation',
  'plan.undo.revert': 'Revert the change to {kind} {name}',
  'plan.undo.unmarkMachine': 'Remove the deletion mark from machine {name}',
  'plan.irreversible.delete': 'Deleting {kind} {name} cannot be undone',
  // effects
  'plan.effect.randomScaleDown':
    'Cluster API picks {count} machines of {name}, drains them and deletes their VMs',
  'plan.effect.rollout':
    'A rolling update replaces {replaces} machines, at most {atATime} at a time',
  'plan.effect.persistentDisksMove':
    'Persistent disks of the IP pool are detached from each old VM and attached to its replacement',
  'plan.effect.bootstrapNewMachinesOnly':
    'Editing a bootstrap template in place changes only new machines; this plan switches to a copy so that every machine is replaced (R-BOOT-3)',
  'plan.effect.nicNotHotUpdated':
    'Extra NICs apply only when a VM is created: running VMs keep theirs until replaced (R-NIC-2)',
  'plan.effect.diskAttachedNotMounted':
    'A disk appended to a running VM is attached on DCS but formatted and mounted only when the VM is replaced (R-DISK-6)',
  'plan.effect.volumesKept':
    'Volumes already created for the persistent disks of removed entries stay on DCS (R-POOL-6)',
  'plan.effect.vmTemplateFromCatalog':
    'The new machine template uses VM template {vmTemplate}, which carries Kubernetes {version} in the versions catalog (R-MD-4), instead of {requested}',
  'plan.effect.controlPlaneFirst':
    'Worker pools may follow once the control plane runs {version} (R-MD-4)',
  // the planner's own issues
  'plan.issue.stale':
    '{kind} {name} changed since you loaded it (you saw version {seen}, it is now {current}): reload and review',
  'plan.issue.poolChanged':
    'IP pool {name} changed since you loaded it (resourceVersion {seen} → {current}): your changes are applied to its current entries. Review the preview before applying',
  'plan.issue.notFound': '{kind} {name} was not found',
  'plan.issue.inUse': '{kind} {name} is still used by {users}: it is kept',
  'plan.issue.entryNotFound': 'IP pool {pool} has no entry with ip {ip}',
} as const;

export type PlanMessageKey = keyof typeof planMessages;

/** A message with its key, its parameters and its English text. */
export interface PlanMessage {
  messageKey: string;
  params: Record<string, string | number>;
  message: string;
}

/** Fills `{param}` placeholders. */
export function formatPlanMessage(
  template: string,
  params: Record<string, string | number>,
): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  );
}

export function planMessage(
  messageKey: PlanMessageKey,
  params: Record<string, string | number> = {},
): PlanMessage {
  return { messageKey, params, message: formatPlanMessage(planMessages[messageKey], params) };
}
