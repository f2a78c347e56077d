/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- objects from the server are arbitrary JSON; tests assert on them */
/**
 * Cluster API v1.14.0's webhooks as the embedded cluster plays them (`capi-webhooks.ts`): what
 * they refuse beyond the schemas, with upstream's messages (`internal/webhooks/*.go` and their
 * tests, e.g. machine_test's `admission webhook "validation.machine.cluster.x-k8s.io" denied the
 * request: Machine.cluster.x-k8s.io "…" is invalid: spec.bootstrap…: Required value: …`), and
 * what they default. On v1.10 the request is in the hub version; on v1.14 through v1beta2.
 */
import type { KubeObject } from '@dcs/apiserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedCluster, type EmbeddedCluster } from './embedded';

interface Refusal {
  code: number;
  message: string;
  reason?: string;
  details?: { causes?: { reason?: string; message?: string; field?: string }[] };
}

async function refusal(p: Promise<unknown>): Promise<Refusal | 'ok'> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    const e = err as { code: number; message: string; toStatus?: () => Refusal };
    return e.toStatus ? e.toStatus() : { code: e.code, message: e.message };
  }
}

const NS = 'default';

function md(name: string, spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'MachineDeployment',
    metadata: { name, namespace: NS, ...meta },
    spec: {
      clusterName: 'c1',
      selector: { matchLabels: { pool: name } },
      template: {
        metadata: { labels: { pool: name } },
        spec: {
          clusterName: 'c1',
          version: 'v1.34.1',
          bootstrap: { dataSecretName: 'boot' },
          infrastructureRef: {
            apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
            kind: 'DCSMachineTemplate',
            name: 'tpl',
          },
        },
      },
      ...spec,
    },
  } as KubeObject;
}

describe('Cluster API webhooks on v1.10 (the hub version, v1beta1)', () => {
  let cluster: EmbeddedCluster;
  beforeAll(async () => {
    cluster = await startEmbeddedCluster({ capiRelease: 'v1.10' });
  });
  afterAll(async () => {
    await cluster.close();
  });
  const client = () => cluster.server.client;

  it('a nodeDrainTimeout that is not a Go duration cannot be decoded: 400 from the defaulting webhook', async () => {
    const bad = md('md-drain');
    (bad.spec as any).template.spec.nodeDrainTimeout = '5 minutes';
    expect(await refusal(client().create(bad))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'admission webhook "default.machinedeployment.cluster.x-k8s.io" denied the request: time: unknown unit " minutes" in duration "5 minutes"',
      code: 400,
    });
    const machine = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Machine',
      metadata: { name: 'm-drain', namespace: NS },
      spec: {
        clusterName: 'c1',
        bootstrap: { dataSecretName: 'b' },
        infrastructureRef: { apiVersion: 'x/v1', kind: 'X', name: 'x' },
        nodeDeletionTimeout: 'abc',
      },
    } as KubeObject;
    const r = await refusal(client().create(machine));
    expect(r !== 'ok' && r.message).toBe(
      'admission webhook "default.machine.cluster.x-k8s.io" denied the request: time: invalid duration "abc"',
    );
  });

  it('O-EDIT-STRATEGY stays possible: a valid nodeDrainTimeout edit is admitted', async () => {
    await client().create(md('md-edit'));
    const r = await refusal(
      client().patch(
        {
          apiVersion: 'cluster.x-k8s.io/v1beta1',
          kind: 'MachineDeployment',
          namespace: NS,
          name: 'md-edit',
        },
        'merge',
        { spec: { template: { spec: { nodeDrainTimeout: '30m' } } } },
      ),
    );
    expect(r).toBe('ok');
  });

  it('defaults as upstream: cluster label, replicas, RollingUpdate strategy, selector labels, the v of a version', async () => {
    const bare = md('md-defaults', { selector: {} });
    (bare.spec as any).template.metadata = {};
    (bare.spec as any).template.spec.version = '1.34.1';
    const created = (await client().create(bare)) as any;
    expect(created.metadata.labels).toEqual({ 'cluster.x-k8s.io/cluster-name': 'c1' });
    expect(created.spec.replicas).toBe(1);
    expect(created.spec.strategy).toMatchObject({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 1, maxUnavailable: 0 },
    });
    const labels = {
      'cluster.x-k8s.io/cluster-name': 'c1',
      'cluster.x-k8s.io/deployment-name': 'md-defaults',
    };
    expect(created.spec.selector.matchLabels).toEqual(labels);
    expect(created.spec.template.metadata.labels).toEqual(labels);
    expect(created.spec.template.spec.version).toBe('v1.34.1');
  });

  it('replicas default to the autoscaler min size on create', async () => {
    const scaled = md(
      'md-autoscaled',
      {},
      {
        annotations: {
          'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': '3',
          'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size': '5',
        },
      },
    );
    const created = (await client().create(scaled)) as any;
    expect(created.spec.replicas).toBe(3);
  });

  it('spec.clusterName is immutable (MachineDeployment, MachineSet, Machine)', async () => {
    await client().create(md('md-immutable'));
    const r = await refusal(
      client().patch(
        {
          apiVersion: 'cluster.x-k8s.io/v1beta1',
          kind: 'MachineDeployment',
          namespace: NS,
          name: 'md-immutable',
        },
        'merge',
        { spec: { clusterName: 'c2', template: { spec: { clusterName: 'c2' } } } },
      ),
    );
    expect(r).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message:
        'admission webhook "validation.machinedeployment.cluster.x-k8s.io" denied the request: MachineDeployment.cluster.x-k8s.io "md-immutable" is invalid: spec.clusterName: Forbidden: field is immutable',
      details: {
        causes: [
          {
            reason: 'FieldValueForbidden',
            message: 'Forbidden: field is immutable',
            field: 'spec.clusterName',
          },
        ],
      },
    });
  });

  it("a MachineDeployment's template labels must match its selector (Forbidden), a MachineSet's too (Invalid)", async () => {
    const r = await refusal(
      client().create(md('md-selector', { selector: { matchLabels: { pool: 'other' } } })),
    );
    expect(r !== 'ok' && r.message).toBe(
      'admission webhook "validation.machinedeployment.cluster.x-k8s.io" denied the request: MachineDeployment.cluster.x-k8s.io "md-selector" is invalid: spec.template.metadata.labels: Forbidden: must match spec.selector "cluster.x-k8s.io/cluster-name=c1,pool=other"',
    );
    const ms = {
      ...md('ms-selector', { selector: { matchLabels: { pool: 'other' } } }),
      kind: 'MachineSet',
    } as KubeObject;
    const s = await refusal(client().create(ms));
    expect(s !== 'ok' && s.message).toBe(
      'admission webhook "validation.machineset.cluster.x-k8s.io" denied the request: MachineSet.cluster.x-k8s.io "ms-selector" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"cluster.x-k8s.io/cluster-name":"c1", "pool":"ms-selector"}: must match spec.selector "cluster.x-k8s.io/cluster-name=c1,pool=other"',
    );
  });

  it('a MachineDeployment name must be a label value; versions must be semantic versions', async () => {
    const long = 'md-' + 'x'.repeat(61);
    const r = await refusal(client().create(md(long)));
    expect(r !== 'ok' && r.details?.causes?.[0]).toEqual({
      reason: 'FieldValueInvalid',
      message: `Invalid value: "${long}": must be a valid label value: must be no more than 63 characters`,
      field: 'metadata.name',
    });
    const bad = md('md-version');
    (bad.spec as any).template.spec.version = 'latest';
    const v = await refusal(client().create(bad));
    expect(v !== 'ok' && v.details?.causes?.[0]).toEqual({
      reason: 'FieldValueInvalid',
      message: 'Invalid value: "vlatest": must be a valid semantic version',
      field: 'spec.template.spec.version',
    });
  });

  it('a Machine needs a bootstrap configRef or dataSecretName', async () => {
    const machine = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Machine',
      metadata: { name: 'm-noboot', namespace: NS },
      spec: {
        clusterName: 'c1',
        bootstrap: {},
        infrastructureRef: { apiVersion: 'x/v1', kind: 'X', name: 'x' },
      },
    } as KubeObject;
    const r = await refusal(client().create(machine));
    expect(r !== 'ok' && r.message).toBe(
      'admission webhook "validation.machine.cluster.x-k8s.io" denied the request: Machine.cluster.x-k8s.io "m-noboot" is invalid: spec.bootstrap: Required value: expected either spec.bootstrap.dataSecretName or spec.bootstrap.configRef to be populated',
    );
  });

  it('a KubeadmControlPlane with stacked etcd has an odd number of replicas', async () => {
    const kcp = {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmControlPlane',
      metadata: { name: 'kcp-even', namespace: NS },
      spec: {
        replicas: 2,
        version: 'v1.34.1',
        machineTemplate: { infrastructureRef: { apiVersion: 'x/v1', kind: 'X', name: 'x' } },
        kubeadmConfigSpec: {},
      },
    } as KubeObject;
    const r = await refusal(client().create(kcp));
    expect(r !== 'ok' && r.message).toBe(
      'admission webhook "validation.kubeadmcontrolplane.controlplane.cluster.x-k8s.io" denied the request: KubeadmControlPlane.controlplane.cluster.x-k8s.io "kcp-even" is invalid: spec.replicas: Forbidden: cannot be an even number when etcd is stacked',
    );
  });

  it('a kubeadm file has content or contentFrom, not both', async () => {
    const file = {
      path: '/etc/x',
      content: 'a',
      contentFrom: { secret: { name: 's', key: 'k' } },
    };
    const kct = {
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmConfigTemplate',
      metadata: { name: 'kct-file', namespace: NS },
      spec: { template: { spec: { files: [file] } } },
    } as KubeObject;
    const r = await refusal(client().create(kct));
    expect(r !== 'ok' && r.details?.causes?.[0]?.field).toBe('spec.template.spec.files[0]');
    expect(r !== 'ok' && r.message).toContain(
      'only one of content or contentFrom may be specified for a single file',
    );
  });
});

describe('Cluster API webhooks on v1.14 (requests in v1beta2, played on the hub)', () => {
  let cluster: EmbeddedCluster;
  beforeAll(async () => {
    cluster = await startEmbeddedCluster({ capiRelease: 'v1.14' });
  });
  afterAll(async () => {
    await cluster.close();
  });

  const v1beta2 = (name: string) =>
    ({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineDeployment',
      metadata: { name, namespace: NS },
      spec: {
        clusterName: 'c1',
        replicas: 1,
        selector: { matchLabels: { pool: name, 'cluster.x-k8s.io/cluster-name': 'c1' } },
        template: {
          metadata: { labels: { pool: name, 'cluster.x-k8s.io/cluster-name': 'c1' } },
          spec: {
            clusterName: 'c1',
            version: 'v1.34.1',
            bootstrap: { dataSecretName: 'boot' },
            infrastructureRef: {
              apiGroup: 'infrastructure.cluster.x-k8s.io',
              kind: 'DCSMachineTemplate',
              name: 'tpl',
            },
          },
        },
      },
    }) as KubeObject;

  it('an object the defaulting changes nothing of is stored as sent (no status: {} written back)', async () => {
    const obj = v1beta2('md-asis');
    obj.metadata.labels = { 'cluster.x-k8s.io/cluster-name': 'c1' };
    const created = (await cluster.server.client.create(obj)) as any;
    expect(created.status).toBeUndefined();
    expect(created.spec.template.metadata.labels).toEqual({
      pool: 'md-asis',
      'cluster.x-k8s.io/cluster-name': 'c1',
    });
  });

  it('spec.clusterName is immutable through v1beta2 too', async () => {
    await cluster.server.client.create(v1beta2('md-immutable'));
    const r = await refusal(
      cluster.server.client.patch(
        {
          apiVersion: 'cluster.x-k8s.io/v1beta2',
          kind: 'MachineDeployment',
          namespace: NS,
          name: 'md-immutable',
        },
        'merge',
        { spec: { clusterName: 'c2', template: { spec: { clusterName: 'c2' } } } },
      ),
    );
    expect(r !== 'ok' && r.message).toBe(
      'admission webhook "validation.machinedeployment.cluster.x-k8s.io" denied the request: MachineDeployment.cluster.x-k8s.io "md-immutable" is invalid: spec.clusterName: Forbidden: field is immutable',
    );
  });
});
