/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- objects from the server are arbitrary JSON; tests assert on them */
/**
 * MachineHealthCheck (issue 26 item 1) as the embedded cluster admits it: upstream's CRD schema
 * (v1.14.0's, both versions; v1.10's reference has no MachineHealthCheck, so its v1beta1 is
 * v1.14's v1beta1) and `internal/webhooks/machinehealthcheck.go`'s defaults and refusals.
 */
import type { KubeObject } from '@dcs/apiserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedCluster, type EmbeddedCluster } from './embedded';

const NS = 'default';

function mhc(name: string, spec: Record<string, unknown> = {}, apiVersion = 'v1beta1') {
  return {
    apiVersion: `cluster.x-k8s.io/${apiVersion}`,
    kind: 'MachineHealthCheck',
    metadata: { name, namespace: NS },
    spec: {
      clusterName: 'c1',
      selector: { matchLabels: { 'cluster.x-k8s.io/deployment-name': 'md-0' } },
      ...spec,
    },
  } as KubeObject;
}

async function refusal(p: Promise<unknown>): Promise<{ code: number; message: string } | 'ok'> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    const e = err as { code: number; message: string };
    return { code: e.code, message: e.message };
  }
}

for (const release of ['v1.10', 'v1.14'] as const) {
  describe(`MachineHealthCheck admission on ${release}`, () => {
    let cluster: EmbeddedCluster;
    beforeAll(async () => {
      cluster = await startEmbeddedCluster({ capiRelease: release });
    });
    afterAll(async () => {
      await cluster.close();
    });

    it('defaults the cluster-name label and the node start-up timeout (10m), keeps what is given', async () => {
      const created = (await cluster.server.client.create(
        mhc('ok', {
          unhealthyConditions: [{ type: 'Ready', status: 'Unknown', timeout: '300s' }],
          maxUnhealthy: '40%',
        }),
      )) as any;
      expect(created.metadata.labels).toEqual({ 'cluster.x-k8s.io/cluster-name': 'c1' });
      expect(created.spec.nodeStartupTimeout).toBe('10m0s');
      expect(created.spec.maxUnhealthy).toBe('40%');
      // v1.14 stores seconds (v1beta2): read back through v1beta1, Go prints the duration anew.
      expect(created.spec.unhealthyConditions).toEqual([
        { type: 'Ready', status: 'Unknown', timeout: release === 'v1.10' ? '300s' : '5m0s' },
      ]);
    });

    it('refuses as upstream: an empty selector, a selector of another cluster, a start-up timeout under 30s, a maxUnhealthy that is not a percentage, an unhealthyRange out of pattern, a changed clusterName', async () => {
      const c = cluster.server.client;
      const msg = async (o: KubeObject) => {
        const r = await refusal(c.create(o));
        return r === 'ok' ? 'ok' : `${String(r.code)} ${r.message}`;
      };
      expect(await msg(mhc('empty', { selector: {} }))).toMatch(
        /^422 .*spec\.selector: Required value: selector must not be empty/u,
      );
      expect(
        await msg(
          mhc('other', {
            selector: { matchLabels: { 'cluster.x-k8s.io/cluster-name': 'c2' } },
          }),
        ),
      ).toMatch(
        /^422 .*spec\.selector\.matchLabels\.cluster\.x-k8s\.io\/cluster-name: Invalid value: "c2": must match spec\.clusterName/u,
      );
      expect(await msg(mhc('short', { nodeStartupTimeout: '10s' }))).toMatch(
        /^422 .*must be at least 30s/u,
      );
      expect(await msg(mhc('pct', { maxUnhealthy: '40' }))).toMatch(
        /^422 .*spec\.maxUnhealthy: Invalid value: "40": must be either an int or a percentage/u,
      );
      expect(await msg(mhc('range', { unhealthyRange: '1-3' }))).toMatch(/^422 .*unhealthyRange/u);
      await c.create(mhc('fixed'));
      const moved = await refusal(
        c.patch(
          {
            apiVersion: 'cluster.x-k8s.io/v1beta1',
            kind: 'MachineHealthCheck',
            namespace: NS,
            name: 'fixed',
          },
          'merge',
          { spec: { clusterName: 'c9', selector: { matchLabels: { a: 'b' } } } },
        ),
      );
      expect(moved !== 'ok' && moved.message).toMatch(
        /spec\.clusterName: Forbidden: field is immutable/u,
      );
    });
  });
}

describe('MachineHealthCheck v1beta2 on v1.14', () => {
  let cluster: EmbeddedCluster;
  beforeAll(async () => {
    cluster = await startEmbeddedCluster({ capiRelease: 'v1.14' });
  });
  afterAll(async () => {
    await cluster.close();
  });

  it('checks in seconds and triggerIf; an unhealthyInRange out of pattern is refused by the schema, a v1beta1 read sees the same health check', async () => {
    const c = cluster.server.client;
    await c.create(
      mhc(
        'v2',
        {
          checks: {
            nodeStartupTimeoutSeconds: 600,
            unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 120 }],
          },
          remediation: { triggerIf: { unhealthyInRange: '[1-2]' } },
        },
        'v1beta2',
      ),
    );
    const v1 = c.get({
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineHealthCheck',
      namespace: NS,
      name: 'v2',
    }) as any;
    expect(v1.spec).toMatchObject({
      unhealthyConditions: [{ type: 'Ready', status: 'False', timeout: '2m0s' }],
      unhealthyRange: '[1-2]',
      nodeStartupTimeout: '10m0s',
    });
    // A v1beta2 pattern the schema checks before any conversion.
    const r = await refusal(
      c.create(
        mhc('bad-range', { remediation: { triggerIf: { unhealthyInRange: '[1-x]' } } }, 'v1beta2'),
      ),
    );
    expect(r !== 'ok' && r.code).toBe(422);
    expect(r !== 'ok' && r.message).toMatch(/unhealthyInRange/u);
  });
});
