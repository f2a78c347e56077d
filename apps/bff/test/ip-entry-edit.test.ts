import type { Plan } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { untilCached, useTestApp } from './support/harness';

/**
 * Issue 12: an unclaimed IP-pool entry's own fields edited through `PATCH …/ippools/{name}`
 * (`update[].set`), against the embedded cluster: the dry-run plan the server accepted, then the
 * write, which keeps every other entry and every persistentDisk block as they were (R-POOL-4);
 * a claimed entry's fields are refused (R-POOL-5).
 */

const NS = 'cpaas-system';
const URL = `/api/v1/namespaces/${NS}/ippools/demo-worker-pool`;
const KIND = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'DCSIpHostnamePool' };

interface PoolShape {
  metadata: { resourceVersion: string };
  spec: { pool: Record<string, unknown>[] };
}

describe('edit an unclaimed IP-pool entry (R-POOL-4, R-POOL-5)', () => {
  const h = useTestApp({ app: { executor: { pollMs: 20 } } });
  const pool = () =>
    h.server().get({
      ...KIND,
      name: 'demo-worker-pool',
      namespace: NS,
    }) as unknown as PoolShape;

  /** Until the app's cache holds the server's current version of the object. */
  const settle = () =>
    untilCached(
      h.app,
      'DCSIpHostnamePool',
      NS,
      'demo-worker-pool',
      pool().metadata.resourceVersion,
    );

  it('R-POOL-4: Preview returns the plan the server accepted; Apply changes that entry’s fields and nothing else', async () => {
    await settle();
    const before = pool();
    const free = before.spec.pool[5];
    const body = {
      resourceVersion: before.metadata.resourceVersion,
      update: [{ ip: free?.ip, set: { hostname: 'spare-6', machineName: 'spare-vm-6' } }],
    };
    const dry = await h.s.request('PATCH', `${URL}?dryRun=true`, body);
    expect(dry.statusCode, dry.body).toBe(200);
    const { verdict, ...plan } = dry.json<Plan>();
    expect(plan.operation).toBe('O-EDIT-IP-POOL');
    expect(verdict?.steps.map((v) => v.status)).toEqual(['accepted']);
    expect(pool().metadata.resourceVersion).toBe(before.metadata.resourceVersion);

    const real = await h.s.request('PATCH', URL, body);
    expect(real.statusCode, real.body).toBe(200);
    const after = pool();
    expect(after.spec.pool).toEqual(
      before.spec.pool.map((e, i) =>
        i === 5 ? { ...e, hostname: 'spare-6', machineName: 'spare-vm-6' } : e,
      ),
    );
  });

  it('R-POOL-5: a claimed entry’s own fields are a 422 naming the rule, and nothing is written', async () => {
    await settle();
    const before = pool();
    const claimed = before.spec.pool[0];
    const res = await h.s.request('PATCH', `${URL}?dryRun=true`, {
      resourceVersion: before.metadata.resourceVersion,
      update: [{ ip: claimed?.ip, set: { hostname: 'renamed' } }],
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json<{ details: { rule: string; path: string }[] }>().details[0]).toMatchObject({
      rule: 'R-POOL-5',
      path: 'update.0.set',
    });
    expect(pool().metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  });
});
