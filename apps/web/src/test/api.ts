import { RIGHT_NAMES, type RuleIssue } from '@dcs/domain';
import { aValidationContext } from '@dcs/domain/testing';
import { vi } from 'vitest';
import { toClusterContext, type ClusterContext } from '../api/get-cluster-context';
import { ApiError } from '../lib/api-client';

/**
 * Stands in for the BFF: `fetch` answers each API path (`/clusters/…/nodepools`, matched at
 * the end of the URL's path) with its body as JSON, anything else with a 404. Undone by
 * `vi.unstubAllGlobals()`.
 */
export function stubApi(routes: Record<string, unknown>): void {
  vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
    const path = String(input instanceof Request ? input.url : input).split('?')[0] ?? '';
    const hit = Object.entries(routes).find(([suffix]) => path.endsWith(suffix));
    return Promise.resolve(
      hit
        ? new Response(JSON.stringify(hit[1]), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          })
        : new Response(JSON.stringify({ code: 'NotFound', message: path }), { status: 404 }),
    );
  });
}

/**
 * The `context` route's answer for the demo cluster (domain's aValidationContext): an operator
 * may do everything; a viewer's access reviews refuse every change, as the BFF reports them.
 */
export function contextWire(role: 'operator' | 'viewer' = 'operator') {
  const permissions = Object.fromEntries(
    RIGHT_NAMES.map((a) => [
      a,
      role === 'operator' || a === 'readSecrets'
        ? { allowed: true }
        : {
            allowed: false,
            denied: [
              {
                verb: 'patch',
                kind: 'MachineDeployment',
                group: 'cluster.x-k8s.io',
                resource: 'machinedeployments',
                namespace: 'cpaas-system',
              },
            ],
          },
    ]),
  );
  return { ...aValidationContext(), permissions };
}

/** The same, as the app holds it. */
export const demoContext = (role: 'operator' | 'viewer' = 'operator'): ClusterContext =>
  toClusterContext(contextWire(role));

/** The BFF's 409 when someone else changed the pool's replicas meanwhile (R-POOL-4). */
export function aConflictError(): ApiError {
  const stale: RuleIssue = {
    rule: 'R-PLAN-STALE',
    path: 'resourceVersion',
    severity: 'error',
    messageKey: 'bff.conflict',
    params: { kind: 'MachineDeployment', name: 'demo-md-0', seen: '10', current: '11' },
    message: 'MachineDeployment demo-md-0 was changed by someone else since you loaded it',
  };
  return new ApiError(409, 'Conflict', stale.message, [stale], {
    code: 'Conflict',
    message: stale.message,
    details: [stale],
    conflict: {
      kind: 'MachineDeployment',
      name: 'demo-md-0',
      base: { spec: { replicas: 4 } },
      theirs: { spec: { replicas: 5 } },
      yours: { spec: { replicas: 6 } },
      fields: ['/spec/replicas'],
    },
  });
}
