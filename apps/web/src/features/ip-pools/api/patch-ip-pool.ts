import type { PatchIpPoolRequest, Plan } from '@dcs/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { seg } from '../../../lib/api-client';
import { invalidateCluster } from '../../../lib/invalidate';
import { planRequest } from '../../../lib/plan-request';

/** Edits of an IP pool without a blind replacement of `spec.pool` (R-POOL-4..6, R-NIC-*, R-DISK-*). */
export const patchIpPool = (
  namespace: string,
  name: string,
  body: PatchIpPoolRequest,
  dryRun: boolean,
): Promise<Plan | undefined> =>
  planRequest(`/namespaces/${seg(namespace)}/ippools/${seg(name)}`, 'PATCH', body, dryRun);

export function usePatchIpPool(namespace: string, cluster: string, name: string) {
  const client = useQueryClient();
  return useCallback(
    async (body: PatchIpPoolRequest, dryRun: boolean) => {
      const plan = await patchIpPool(namespace, name, body, dryRun);
      if (!dryRun) await invalidateCluster(client, namespace, cluster);
      return plan;
    },
    [client, namespace, cluster, name],
  );
}
