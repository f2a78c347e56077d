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
  /** Why not, in words the user can act on (the access review's verdict). */
  reason?: string;
}

export interface ClusterContext {
  validation: ValidationContext;
  permissions: Partial<Record<Action, Permission>>;
}

type PermissionWire = boolean | { allowed: boolean; reason?: string };
type ContextWire = Partial<ValidationContext> & {
  validation?: ValidationContext;
  context?: ValidationContext;
  permissions?: Record<string, PermissionWire>;
};

export function toClusterContext(w: ContextWire): ClusterContext {
  const validation = (w.validation ?? w.context ?? w) as ValidationContext;
  const permissions: Partial<Record<Action, Permission>> = {};
  for (const [k, v] of Object.entries(w.permissions ?? {})) {
    permissions[k as Action] =
      typeof v === 'boolean'
        ? { allowed: v }
        : { allowed: v.allowed, ...(v.reason ? { reason: v.reason } : {}) };
  }
  return { validation, permissions };
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
    staleTime: 10_000,
  });

export const useClusterContext = (namespace: string, cluster: string) =>
  useQuery(clusterContextQueryOptions(namespace, cluster));
