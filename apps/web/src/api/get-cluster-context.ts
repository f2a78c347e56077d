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

/** An access review that said no, as kubectl names it: verb, resource (of its API group), namespace. */
export interface DeniedCheck {
  verb: string;
  kind: string;
  group: string;
  resource: string;
  namespace: string;
  /** The review's own reason text, when the API server's authorizer gave one. */
  reason?: string;
}

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

/**
 * The BFF's rights (access reviews of the user's own credential) each action reads, the first
 * one present winning (an older BFF knows fewer), and what the action needs of them.
 */
const ACTIONS: Record<Action, { from: readonly string[]; needs: string }> = {
  createPool: {
    from: ['createPool'],
    needs: 'create MachineDeployment, DCSMachineTemplate, KubeadmConfigTemplate',
  },
  scalePool: { from: ['scale'], needs: 'patch MachineDeployment' },
  deleteMachines: { from: ['deleteMachines', 'scale'], needs: 'patch MachineDeployment, Machine' },
  upgradePool: { from: ['upgrade'], needs: 'patch MachineDeployment, create DCSMachineTemplate' },
  editBootstrap: {
    from: ['editBootstrap', 'upgrade'],
    needs: 'patch MachineDeployment, create KubeadmConfigTemplate',
  },
  deletePool: { from: ['deletePool'], needs: 'delete MachineDeployment' },
  upgradeControlPlane: {
    from: ['upgradeControlPlane'],
    needs: 'patch KubeadmControlPlane, create DCSMachineTemplate',
  },
  createIpPool: { from: ['createIpPool'], needs: 'create DCSIpHostnamePool' },
  editIpPool: { from: ['editIpPool'], needs: 'patch DCSIpHostnamePool' },
  exportDiagnostics: { from: ['exportDiagnostics'], needs: 'list' },
};

/** A right on the wire: `{allowed, denied}`; a bare boolean from an older BFF. */
type PermissionWire = boolean | { allowed: boolean; denied?: readonly DeniedCheck[] };
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
    const v = from.map((name) => wire[name]).find((p) => p !== undefined);
    if (v === undefined) continue;
    permissions[action] =
      typeof v === 'boolean'
        ? { allowed: v, needs }
        : { allowed: v.allowed, needs, ...(v.denied?.length ? { denied: v.denied } : {}) };
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
