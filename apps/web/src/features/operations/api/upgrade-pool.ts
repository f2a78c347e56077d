import type { Plan, UpgradeRequest } from '@dcs/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { seg } from '../../../lib/api-client';
import { invalidateCluster } from '../../../lib/invalidate';
import { planRequest } from '../../../lib/plan-request';

/** O-UPGRADE-INFRA, O-UPGRADE-K8S, O-UPDATE-BOOTSTRAP, and O-UPGRADE-CP for `control-plane`. */
export const upgradePool = (
  namespace: string,
  cluster: string,
  pool: string,
  body: UpgradeRequest,
  dryRun: boolean,
): Promise<Plan | undefined> =>
  planRequest(
    `/clusters/${seg(namespace)}/${seg(cluster)}/nodepools/${seg(pool)}/upgrade`,
    'POST',
    body,
    dryRun,
  );

export function useUpgradePool(namespace: string, cluster: string, pool: string) {
  const client = useQueryClient();
  return useCallback(
    async (body: UpgradeRequest, dryRun: boolean) => {
      const plan = await upgradePool(namespace, cluster, pool, body, dryRun);
      if (!dryRun) await invalidateCluster(client, namespace, cluster);
      return plan;
    },
    [client, namespace, cluster, pool],
  );
}
