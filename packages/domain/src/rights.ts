import type { KindName } from './kinds';

/**
 * The user's rights in a cluster's namespace, as the BFF's `context` route sends them: each right
 * is the access reviews its operation's plan will need (asked with the user's own credential).
 * When one is refused, the route says which (verb, resource, namespace) and the review's reason,
 * so that a disabled action explains itself instead of only being grey.
 *
 * The wire's zod schemas are in `rights-schema.ts`: a module's top-level schema construction is
 * code a bundler must keep, and the web's first screen needs only `rightNeeds` (zod is ~25 KB
 * gzipped of its first load, issue 14).
 */

export const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] as const;
export type Verb = (typeof VERBS)[number];

export type RightName =
  | 'createPool'
  | 'scale'
  | 'deleteMachines'
  | 'upgrade'
  | 'editBootstrap'
  | 'deletePool'
  | 'editStrategy'
  | 'upgradeControlPlane'
  | 'editControlPlaneConfig'
  | 'createIpPool'
  | 'editIpPool'
  | 'pauseCluster'
  | 'pausePool'
  | 'pauseControlPlane'
  | 'autoscalePool'
  | 'restartPool'
  | 'restartControlPlane'
  | 'healthCheckPool'
  | 'readSecrets';

/** What each right needs: the verbs on kinds its operations' plans write with. */
export const RIGHTS: Readonly<Record<RightName, readonly (readonly [Verb, KindName])[]>> = {
  // O-CREATE-POOL (the IP pool too when it is a new one: that is `createIpPool`).
  createPool: [
    ['create', 'DCSMachineTemplate'],
    ['create', 'KubeadmConfigTemplate'],
    ['create', 'MachineDeployment'],
  ],
  // O-SCALE-UP / O-SCALE-DOWN-RANDOM.
  scale: [['patch', 'MachineDeployment']],
  // O-SCALE-DOWN-TARGETED annotates the chosen Machines first (R-MD-6).
  deleteMachines: [
    ['patch', 'Machine'],
    ['patch', 'MachineDeployment'],
  ],
  // O-UPGRADE-INFRA / O-UPGRADE-K8S.
  upgrade: [
    ['create', 'DCSMachineTemplate'],
    ['patch', 'MachineDeployment'],
  ],
  // O-UPDATE-BOOTSTRAP (R-BOOT-3: a copy, then the pool points at it).
  editBootstrap: [
    ['create', 'KubeadmConfigTemplate'],
    ['patch', 'MachineDeployment'],
  ],
  deletePool: [['delete', 'MachineDeployment']],
  // O-EDIT-STRATEGY: one JSON patch of the MachineDeployment.
  editStrategy: [['patch', 'MachineDeployment']],
  // O-UPGRADE-CP.
  upgradeControlPlane: [
    ['create', 'DCSMachineTemplate'],
    ['patch', 'KubeadmControlPlane'],
  ],
  // O-EDIT-CP-CONFIG: one JSON patch of the KubeadmControlPlane's kubeadmConfigSpec.
  editControlPlaneConfig: [['patch', 'KubeadmControlPlane']],
  createIpPool: [['create', 'DCSIpHostnamePool']],
  editIpPool: [['patch', 'DCSIpHostnamePool']],
  // O-PAUSE / O-RESUME: one JSON patch of the Cluster (spec.paused), of a worker pool's
  // MachineDeployment or of the KubeadmControlPlane (the paused annotation).
  pauseCluster: [['patch', 'Cluster']],
  pausePool: [['patch', 'MachineDeployment']],
  pauseControlPlane: [['patch', 'KubeadmControlPlane']],
  // O-AUTOSCALE / O-AUTOSCALE-REMOVE: one JSON patch of the MachineDeployment's annotations.
  autoscalePool: [['patch', 'MachineDeployment']],
  // O-RESTART: one JSON patch of a worker pool's MachineDeployment or of the KubeadmControlPlane
  // (spec.rolloutAfter).
  restartPool: [['patch', 'MachineDeployment']],
  restartControlPlane: [['patch', 'KubeadmControlPlane']],
  // O-MHC-CREATE / O-MHC-EDIT / O-MHC-DELETE: a worker pool's MachineHealthCheck (issue 26 item 1).
  healthCheckPool: [
    ['create', 'MachineHealthCheck'],
    ['patch', 'MachineHealthCheck'],
    ['delete', 'MachineHealthCheck'],
  ],
  // R-BOOT-1 on bootstrap files kept in Secrets: without it, their contents are "unknown".
  readSecrets: [['get', 'Secret']],
};

export const RIGHT_NAMES = Object.keys(RIGHTS) as [RightName, ...RightName[]];

/** What a right needs, as a person reads it: "patch Machine, patch MachineDeployment". */
export const rightNeeds = (name: RightName): string =>
  RIGHTS[name].map(([verb, kind]) => `${verb} ${kind}`).join(', ');
