import type { KindName } from '@dcs/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Check } from '../../auth/authorizer';
import type { Principal } from '../../auth/principal';

/** The kinds a cluster's views are made of: a user must be able to list each to see them. */
export const VIEW_KINDS: readonly KindName[] = [
  'Cluster',
  'KubeadmControlPlane',
  'MachineDeployment',
  'MachineSet',
  'Machine',
  'DCSMachine',
  'DCSMachineTemplate',
  'KubeadmConfigTemplate',
  'DCSIpHostnamePool',
];

/** What an IP pool's view is made of. */
export const IP_POOL_KINDS: readonly KindName[] = [
  'DCSIpHostnamePool',
  'DCSMachine',
  'DCSMachineTemplate',
  'MachineDeployment',
];

export const listChecks = (kinds: readonly KindName[], namespace: string): Check[] =>
  kinds.map((kind) => ({ verb: 'list', kind, namespace }));

/** The principal, authorized to list `kinds` in `namespace`: cached data leaves only then. */
export async function readerOf(
  app: FastifyInstance,
  request: FastifyRequest,
  namespace: string,
  kinds: readonly KindName[] = VIEW_KINDS,
): Promise<Principal> {
  const principal = await app.principalOf(request);
  // Both at once: the first read after a start waits for the caches and for the access reviews
  // together (issue 14's cold start), not for one after the other.
  const synced = app.whenSynced();
  synced.catch(() => undefined);
  await app.authorize(principal, listChecks(kinds, namespace));
  await synced;
  return principal;
}
