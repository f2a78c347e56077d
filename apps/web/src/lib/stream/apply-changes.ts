import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { IpPoolView, MachineView, NodePoolView } from '@dcs/domain';
import { queryKeys } from '../query-keys';
import {
  applyToList,
  compareIpPools,
  compareMachines,
  comparePools,
  isEmpty,
  type ChangeSet,
} from './reducer';

/**
 * Writes one change set into the react-query cache of a cluster: the lists through the pure
 * reducer, single views by replacement. Lists that are not loaded stay as they are.
 */
export function applyChanges(
  client: QueryClient,
  namespace: string,
  cluster: string,
  changes: ChangeSet,
): void {
  if (isEmpty(changes)) return;
  if (changes.resync) {
    void client.invalidateQueries({ queryKey: queryKeys.cluster(namespace, cluster) });
    void client.invalidateQueries({ queryKey: queryKeys.ipPools(namespace) });
    return;
  }
  const update = <T>(key: QueryKey, fn: (old: T) => T) => {
    if (client.getQueryData(key) !== undefined)
      client.setQueryData<T>(key, (old) => (old === undefined ? old : fn(old)));
  };

  if (changes.pools.size > 0) {
    update<readonly NodePoolView[]>(queryKeys.pools(namespace, cluster), (old) =>
      applyToList(old, changes.pools, comparePools),
    );
    for (const [id, view] of changes.pools) {
      const key = queryKeys.pool(namespace, cluster, id);
      if (view) update<NodePoolView>(key, () => view);
      else void client.invalidateQueries({ queryKey: key, exact: true });
    }
  }

  if (changes.machines.size > 0) {
    update<readonly MachineView[]>(queryKeys.machines(namespace, cluster), (old) =>
      applyToList(old, changes.machines, compareMachines),
    );
    // Each loaded pool's machine list: `[...pools, poolId, 'machines']`.
    const poolsKey = queryKeys.pools(namespace, cluster);
    for (const query of client.getQueryCache().findAll({ queryKey: poolsKey })) {
      const key = query.queryKey;
      if (key.length !== poolsKey.length + 2 || key[key.length - 1] !== 'machines') continue;
      const poolId = key[poolsKey.length];
      update<readonly MachineView[]>(key, (old) =>
        applyToList(old, changes.machines, compareMachines, (m) => m.poolId === poolId),
      );
    }
  }

  if (changes.ipPools.size > 0) {
    update<readonly IpPoolView[]>(queryKeys.ipPools(namespace), (old) =>
      applyToList(old, changes.ipPools, compareIpPools),
    );
    for (const [id, view] of changes.ipPools) {
      if (view) update<IpPoolView>(queryKeys.ipPool(namespace, id), () => view);
    }
  }
}
