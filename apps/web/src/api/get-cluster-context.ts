import type { ValidationContext } from '@dcs/domain';
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
  | 'exportDiagnostics';

export interface Permission {
  allowed: boolean;
  /** Why not, in words the user can act on, when the BFF says. */
  reason?: string;
  /** What the action needs (verbs on kinds), to explain a refusal. */
  needs: string;
}

export interface ClusterContext {
  validation: ValidationContext;
  permissions: Partial<Record<Action, Permission>>;
  /** Who the access reviews were asked for. */
  user?: { username: string; groups: string[] };
}

/**
 * The BFF's permission names (access reviews of the user's own credential) and what each of the
 * console's actions needs of them.
 */
const ACTIONS: Record<Action, { from: string; needs: string }> = {
  createPool: {
    from: 'createPool',
    needs: 'create MachineDeployment, DCSMachineTemplate, KubeadmConfigTemplate',
  },
  scalePool: { from: 'scale', needs: 'patch MachineDeployment' },
  deleteMachines: { from: 'scale', needs: 'patch MachineDeployment, Machine' },
  upgradePool: { from: 'upgrade', needs: 'patch MachineDeployment, create DCSMachineTemplate' },
  editBootstrap: {
    from: 'upgrade',
    needs: 'patch MachineDeployment, create KubeadmConfigTemplate',
  },
  deletePool: { from: 'deletePool', needs: 'delete MachineDeployment' },
  upgradeControlPlane: {
    from: 'upgradeControlPlane',
    needs: 'patch KubeadmControlPlane, create DCSMachineTemplate',
  },
  createIpPool: { from: 'createIpPool', needs: 'create DCSIpHostnamePool' },
  editIpPool: { from: 'editIpPool', needs: 'patch DCSIpHostnamePool' },
  exportDiagnostics: { from: 'exportDiagnostics', needs: 'list' },
};

type PermissionWire = boolean | { allowed: boolean; reason?: string };
type ContextWire = ValidationContext & {
  permissions?: Record<string, PermissionWire>;
  user?: { username: string; groups: string[] };
};

export function toClusterContext(w: ContextWire): ClusterContext {
  const { permissions: wire = {}, user, ...validation } = w;
  const permissions: Partial<Record<Action, Permission>> = {};
  for (const [action, { from, needs }] of Object.entries(ACTIONS) as [
    Action,
    (typeof ACTIONS)[Action],
  ][]) {
    const v = wire[from];
    if (v === undefined) continue;
    permissions[action] =
      typeof v === 'boolean'
        ? { allowed: v, needs }
        : { allowed: v.allowed, needs, ...(v.reason ? { reason: v.reason } : {}) };
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
