import { CONTROL_PLANE_POOL_ID, type KindName } from '@dcs/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Check } from '../../auth/authorizer';
import type { Principal } from '../../auth/principal';
import { HttpError } from '../../http/errors';

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

/**
 * A preValidation hook: the user may attempt the operation at all — its main verb on its target
 * — before its body is validated or anything planned (issue 25, item 6: a viewer's 403 came after
 * 21 s of work on a large body). `checkOf` gets the raw path parameters (validated after this
 * hook) and returns undefined when the target is unknown (the handler answers 404). Every step
 * of the plan is still authorized before anything is written.
 */
export function mayAttempt(
  app: FastifyInstance,
  checkOf: (params: Readonly<Record<string, string | undefined>>) => Check | undefined,
): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const check = checkOf(request.params as Record<string, string | undefined>);
    if (!check) return;
    const principal = await app.principalOf(request);
    try {
      await app.authorize(principal, [check]);
    } catch (error) {
      // Only a definite refusal ends the request here. When the access review cannot be
      // answered (the API server is down), the operation itself says so, as it always has
      // ("no change was made"), and authorizes its plan before any write.
      if (error instanceof HttpError && error.statusCode === 403) throw error;
    }
  };
}

/**
 * Patch of the control plane a cluster names (`spec.controlPlaneRef`), read from the cache
 * without building the cluster's view (the names are the request's, not yet authorized).
 */
export function controlPlanePatch(
  app: FastifyInstance,
  p: Readonly<Record<string, string | undefined>>,
): Check | undefined {
  const namespace = p.namespace ?? '';
  const ref = app.cache.stores.Cluster.get(namespace, p.cluster ?? '')?.spec?.controlPlaneRef;
  return ref?.name
    ? { verb: 'patch', kind: 'KubeadmControlPlane', namespace, name: ref.name }
    : undefined;
}

/**
 * A worker pool's `verb` on its MachineDeployment (the pool's name), for mayAttempt; none for the
 * control-plane pool, which the route refuses itself (a 400 naming its rule).
 */
export function workerPoolCheck(verb: 'patch' | 'delete') {
  return (p: Readonly<Record<string, string | undefined>>): Check | undefined =>
    p.pool === CONTROL_PLANE_POOL_ID
      ? undefined
      : { verb, kind: 'MachineDeployment', namespace: p.namespace ?? '', name: p.pool ?? '' };
}

/** A pool's own operation: patch its MachineDeployment, or the control plane its cluster names. */
export function poolPatch(
  app: FastifyInstance,
  p: Readonly<Record<string, string | undefined>>,
): Check | undefined {
  return p.pool === CONTROL_PLANE_POOL_ID ? controlPlanePatch(app, p) : workerPoolCheck('patch')(p);
}
