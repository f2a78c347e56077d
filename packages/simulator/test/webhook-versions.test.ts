import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from './support/sim';

/**
 * On Cluster API v1.14 the webhooks take v1beta2, the version a request is made in; the simulated
 * ones are written for the hub (v1beta1). What they default must reach a v1beta2 object as a
 * v1beta2 webhook's patch would, not as a round trip through v1beta1: before, a v1beta2
 * MachineHealthCheck's missing `timeoutSeconds` came back as 0 and an empty `remediation: {}`
 * vanished, so the embedded cluster accepted what upstream's schema refuses (required, and
 * minProperties 1; ../shared/reference/capi-crds-v1.14).
 */

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ capiRelease: 'v1.14' });
}, 60_000);
afterAll(async () => {
  await sim.close();
});

let n = 0;
const create = (spec: Record<string, unknown>) =>
  sim.cluster.server.client.create({
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineHealthCheck',
    metadata: { namespace: 'cpaas-system', name: `mhc-${String(n++)}` },
    spec: { clusterName: 'demo', selector: { matchLabels: { pool: 'a' } }, ...spec },
  });

describe('a v1beta2 request through the hub-version webhooks (Cluster API v1.14)', () => {
  it('an empty remediation is refused by the schema, as upstream refuses it', async () => {
    await expect(create({ remediation: {} })).rejects.toThrow(
      'spec.remediation in body should have at least 1 properties',
    );
  });

  it('a node condition without timeoutSeconds is refused: required, not filled with 0', async () => {
    await expect(
      create({ checks: { unhealthyNodeConditions: [{ type: 'Ready', status: 'False' }] } }),
    ).rejects.toThrow('spec.checks.unhealthyNodeConditions[0].timeoutSeconds: Required value');
  });

  it('what the webhook defaults still arrives, and only that: the cluster label, the 600 s start-up timeout', async () => {
    const o = await create({
      checks: {
        unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }],
      },
      remediation: { triggerIf: { unhealthyLessThanOrEqualTo: '40%' } },
    });
    expect(o.metadata.labels).toEqual({ 'cluster.x-k8s.io/cluster-name': 'demo' });
    expect(o.spec).toEqual({
      clusterName: 'demo',
      selector: { matchLabels: { pool: 'a' } },
      checks: {
        unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }],
        nodeStartupTimeoutSeconds: 600,
      },
      remediation: { triggerIf: { unhealthyLessThanOrEqualTo: '40%' } },
    });
  });
});
