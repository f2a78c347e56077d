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

interface RawKcp {
  metadata?: { resourceVersion?: string };
  spec?: { version?: string; kubeadmConfigSpec?: KubeadmConfigSpec };
}

/** The raw KubeadmControlPlane (the objects route), read fresh each time the editor opens. */
export const getControlPlaneConfig = async (
  namespace: string,
  name: string,
  signal?: AbortSignal,
): Promise<ControlPlaneConfig> => {
  const kcp = await request<RawKcp>(
    `/namespaces/${seg(namespace)}/objects/KubeadmControlPlane/${seg(name)}`,
    { signal },
  );
  return {
    resourceVersion: kcp.metadata?.resourceVersion ?? '',
    version: kcp.spec?.version,
    kubeadmConfigSpec: kcp.spec?.kubeadmConfigSpec ?? {},
  };
};

export const useControlPlaneConfig = (namespace: string, name: string) =>
  useQuery({
    queryKey: ['controlPlaneConfig', namespace, name],
    queryFn: ({ signal }) => getControlPlaneConfig(namespace, name, signal),
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
