import type { EditControlPlaneConfigRequest, KubeadmConfigSpec, Plan } from '@dcs/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { request, seg } from '../../../lib/api-client';
import { invalidateCluster } from '../../../lib/invalidate';
import { planRequest } from '../../../lib/plan-request';

/** The control plane as the editor starts from it: its kubeadm config and resourceVersion. */
export interface ControlPlaneConfig {
  resourceVersion: string;
  version: string | undefined;
  kubeadmConfigSpec: KubeadmConfigSpec;
}

/**
 * The control plane's kubeadm config as O-EDIT-CP-CONFIG's body speaks it (the console's model),
 * read fresh each time the editor opens. Not the raw object: a cluster serving v1beta2 writes
 * `kubeletExtraArgs` as a list, which the request's map would refuse (issue 23).
 */
export const getControlPlaneConfig = async (
  namespace: string,
  cluster: string,
  signal?: AbortSignal,
): Promise<ControlPlaneConfig> => {
  const config = await request<{
    resourceVersion: string;
    version?: string;
    kubeadmConfigSpec: KubeadmConfigSpec;
  }>(`/clusters/${seg(namespace)}/${seg(cluster)}/control-plane/kubeadm-config`, { signal });
  return {
    resourceVersion: config.resourceVersion,
    version: config.version,
    kubeadmConfigSpec: config.kubeadmConfigSpec,
  };
};

export const useControlPlaneConfig = (namespace: string, cluster: string) =>
  useQuery({
    queryKey: ['controlPlaneConfig', namespace, cluster],
    queryFn: ({ signal }) => getControlPlaneConfig(namespace, cluster, signal),
    staleTime: 0,
  });

/** O-EDIT-CP-CONFIG: the control plane's kubeadm config. */
export const editControlPlaneConfig = (
  namespace: string,
  cluster: string,
  body: EditControlPlaneConfigRequest,
  dryRun: boolean,
): Promise<Plan | undefined> =>
  planRequest(
    `/clusters/${seg(namespace)}/${seg(cluster)}/control-plane/kubeadm-config`,
    'POST',
    body,
    dryRun,
  );

export function useEditControlPlaneConfig(namespace: string, cluster: string) {
  const client = useQueryClient();
  return useCallback(
    async (body: EditControlPlaneConfigRequest, dryRun: boolean) => {
      const plan = await editControlPlaneConfig(namespace, cluster, body, dryRun);
      if (!dryRun) await invalidateCluster(client, namespace, cluster);
      return plan;
    },
    [client, namespace, cluster],
  );
}
