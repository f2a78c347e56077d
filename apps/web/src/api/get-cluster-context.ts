import {
  rightNeeds,
  type DeniedCheck,
  type RightName,
  type Rights,
  type ValidationContext,
} from '@dcs/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request, seg } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';

/**
 * What forms need to validate in the browser with the very rules the BFF applies (names in use,
 * IP pools with free entries, the versions catalog, templates, provider and control-plane
 * versions), and the user's rights, decided by access reviews on the BFF.
 */

export type Action =
  | 'createPool'
  | 'scalePool'
  | 'upgradePool'
  | 'deletePool'
  | 'deleteMachines'
  | 'editBootstrap'
  | 'upgradeControlPlane'
  | 'createIpPool'
  | 'editIpPool'
  | 'editStrategy'
  | 'editControlPlaneConfig'
  | 'pauseCluster'
  | 'pausePool'
  | 'pauseControlPlane'
  | 'autoscalePool'
  | 'restartPool'
  | 'restartControlPlane'
  | 'healthCheckPool';

export interface Permission {
  allowed: boolean;
  /** The access reviews that refused it (the BFF says which, so the UI can say why). */
  denied?: readonly DeniedCheck[];
  /** What the action needs (verbs on kinds), to explain a refusal when the BFF names none. */
  needs: string;
}

export interface ClusterContext {
  validation: ValidationContext;
  permissions: Partial<Record<Action, Permission>>;
  /** Who the access reviews were asked for. */
  user?: { username: string; groups: string[] };
}

/** The BFF's right (domain's `RIGHTS`, decided by access reviews) each action reads. */
const RIGHT_OF: Record<Action, RightName> = {
  createPool: 'createPool',
  scalePool: 'scale',
  deleteMachines: 'deleteMachines',
  upgradePool: 'upgrade',
  editBootstrap: 'editBootstrap',
  deletePool: 'deletePool',
  upgradeControlPlane: 'upgradeControlPlane',
  createIpPool: 'createIpPool',
  editIpPool: 'editIpPool',
  editStrategy: 'editStrategy',
  editControlPlaneConfig: 'editControlPlaneConfig',
  pauseCluster: 'pauseCluster',
  pausePool: 'pausePool',
  pauseControlPlane: 'pauseControlPlane',
  autoscalePool: 'autoscalePool',
  restartPool: 'restartPool',
  restartControlPlane: 'restartControlPlane',
  healthCheckPool: 'healthCheckPool',
};

type ContextWire = ValidationContext & {
  permissions?: Partial<Rights>;
  user?: { username: string; groups: string[] };
};

export function toClusterContext(w: ContextWire): ClusterContext {
  const { permissions: wire = {}, user, ...validation } = w;
  const permissions: Partial<Record<Action, Permission>> = {};
  for (const [action, right] of Object.entries(RIGHT_OF) as [Action, RightName][]) {
    const v = wire[right];
    if (v === undefined) continue;
    const needs = rightNeeds(right);
    permissions[action] = v.allowed
      ? { allowed: true, needs }
      : { allowed: false, needs, denied: v.denied };
  }
  return { validation, permissions, ...(user ? { user } : {}) };
}

export const getClusterContext = async (
  namespace: string,
  cluster: string,
  signal?: AbortSignal,
): Promise<ClusterContext> =>
  toClusterContext(
    await request<ContextWire>(`/clusters/${seg(namespace)}/${seg(cluster)}/context`, { signal }),
  );

export const clusterContextQueryOptions = (namespace: string, cluster: string) =>
  queryOptions({
    queryKey: queryKeys.context(namespace, cluster),
    queryFn: ({ signal }) => getClusterContext(namespace, cluster, signal),
    // Every form and dialog that mounts reads it anew: rules must judge the state as it is now.
    staleTime: 0,
  });

export const useClusterContext = (namespace: string, cluster: string) =>
  useQuery(clusterContextQueryOptions(namespace, cluster));
