import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';

describe('read routes against the embedded cluster (local mode)', () => {
  let t: TestCluster;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await startTestCluster();
    app = await buildTestApp(t);
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('is ready after the first sync and reports its watches', async () => {
    const res = await app.inject('/readyz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ready: true });
  });

  it('lists clusters', async () => {
    const res = await app.inject('/api/v1/clusters');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject([{ id: 'cpaas-system/demo', pools: 2 }]);
  });

  it('lists node pools: control plane first, then workers, as view models', async () => {
    const res = await app.inject('/api/v1/clusters/cpaas-system/demo/nodepools');
    expect(res.statusCode, res.body).toBe(200);
    const pools = res.json<{ id: string; replicas: { desired: number } }[]>();
    expect(pools.map((p) => p.id)).toEqual(['control-plane', 'demo-md-0']);
  });

  it('serves one pool, its machines, its events and a diagnostics download', async () => {
    const pool = await app.inject('/api/v1/clusters/cpaas-system/demo/nodepools/demo-md-0');
    expect(pool.statusCode).toBe(200);
    const machines = await app.inject(
      '/api/v1/clusters/cpaas-system/demo/nodepools/demo-md-0/machines',
    );
    expect(machines.json<unknown[]>()).toHaveLength(3);
    const events = await app.inject(
      '/api/v1/clusters/cpaas-system/demo/nodepools/demo-md-0/events',
    );
    expect(events.statusCode, events.body).toBe(200);
    const diag = await app.inject(
      '/api/v1/clusters/cpaas-system/demo/nodepools/demo-md-0/diagnostics',
    );
    expect(diag.statusCode, diag.body).toBe(200);
    expect(diag.headers['content-disposition']).toContain('attachment');
    expect(diag.json<{ objects: { machines: unknown[] } }>().objects.machines).toHaveLength(3);
  });

  it('serves a whole cluster’s diagnostics bundle: every pool, machine, object and event, without managed fields, last-applied copies or Secret contents', async () => {
    // An object kubectl applied carries its last-applied copy, which for a Secret would hold values.
    await t.cluster.server.client.patch(
      {
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind: 'MachineDeployment',
        namespace: 'cpaas-system',
        name: 'demo-md-0',
      },
      'merge',
      {
        metadata: {
          annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"s3cr3t":1}' },
        },
      },
    );
    // A bootstrap file from a Secret: the bundle names the Secret, never its data.
    const file = {
      path: '/etc/kubernetes/patches/kubeletconfiguration0+strategic.json',
      contentFrom: { secret: { name: 'dcs-kubernetes-files', key: 'kubelet-patch' } },
    };
    await t.cluster.server.client.patch(
      {
        apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
        kind: 'KubeadmConfigTemplate',
        namespace: 'cpaas-system',
        name: 'demo-md-0-kct',
      },
      'merge',
      { spec: { template: { spec: { files: [file] } } } },
    );
    await vi.waitFor(() => {
      const kct = app.cache.stores.KubeadmConfigTemplate.get('cpaas-system', 'demo-md-0-kct');
      expect(kct?.spec?.template.spec?.files).toHaveLength(1);
      const md = app.cache.stores.MachineDeployment.get('cpaas-system', 'demo-md-0');
      expect(
        md?.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'],
      ).toBeDefined();
    });
    const res = await app.inject('/api/v1/clusters/cpaas-system/demo/diagnostics');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="diagnostics-cpaas-system-demo.json"',
    );
    const bundle = res.json<{
      cluster: { id: string };
      pools: { id: string }[];
      machines: unknown[];
      ipPools: { name: string }[];
      objects: Record<string, { metadata: { name: string } }[]>;
      secretReferences: { secret: string; usedBy: string }[];
    }>();
    expect(bundle.cluster.id).toBe('cpaas-system/demo');
    expect(bundle.pools.map((p) => p.id)).toEqual(['control-plane', 'demo-md-0']);
    expect(bundle.machines).toHaveLength(6);
    expect(bundle.ipPools.map((p) => p.name)).toEqual(['demo-worker-pool']);
    const names = (kind: string) => (bundle.objects[kind] ?? []).map((o) => o.metadata.name);
    expect(names('clusters')).toEqual(['demo']);
    expect(names('machineDeployments')).toEqual(['demo-md-0']);
    expect(names('machines')).toHaveLength(6);
    expect(names('ipPools')).toEqual(['demo-worker-pool']);
    expect(res.body).not.toContain('managedFields');
    expect(res.body).not.toContain('s3cr3t');
    expect(res.body).not.toContain('last-applied-configuration');
    // The bootstrap files' Secrets, by name only.
    expect(bundle.secretReferences).toEqual([
      {
        secret: 'dcs-kubernetes-files',
        key: 'kubelet-patch',
        path: file.path,
        usedBy: 'KubeadmConfigTemplate/demo-md-0-kct',
      },
    ]);
    const missing = await app.inject('/api/v1/clusters/cpaas-system/nope/diagnostics');
    expect(missing.statusCode).toBe(404);
  });

  it('lists every machine of the cluster, as the pools list theirs', async () => {
    const res = await app.inject('/api/v1/clusters/cpaas-system/demo/machines');
    expect(res.statusCode, res.body).toBe(200);
    const machines = res.json<{ name: string; poolId?: string }[]>();
    expect(machines.map((m) => m.name)).toEqual([
      'demo-control-plane-c0',
      'demo-control-plane-c1',
      'demo-control-plane-c2',
      'demo-md-0-abc12-m0',
      'demo-md-0-abc12-m1',
      'demo-md-0-abc12-m2',
    ]);
    const ofPool = await app.inject(
      '/api/v1/clusters/cpaas-system/demo/nodepools/demo-md-0/machines',
    );
    expect(machines.filter((m) => m.poolId === 'demo-md-0')).toEqual(ofPool.json());
    const missing = await app.inject('/api/v1/clusters/cpaas-system/nope/machines');
    expect(missing.statusCode).toBe(404);
  });

  it('answers 404 with the error shape for an unknown cluster or pool', async () => {
    const res = await app.inject('/api/v1/clusters/cpaas-system/nope/nodepools');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      code: 'NotFound',
      details: [{ rule: 'R-REQUEST', path: 'cluster' }],
    });
  });

  it('serves the context the forms validate with', async () => {
    const res = await app.inject('/api/v1/clusters/cpaas-system/demo/context');
    expect(res.statusCode, res.body).toBe(200);
    const ctx = res.json<{
      namesInUse: { machineDeployments: string[] };
      providerVersion: string;
      permissions: Record<string, { allowed: boolean }>;
      versions: unknown[];
    }>();
    expect(ctx.namesInUse.machineDeployments).toEqual(['demo-md-0']);
    expect(ctx.providerVersion).toBe('1.0.16');
    expect(ctx.versions.length).toBeGreaterThan(0);
    expect(ctx.permissions.createPool).toEqual({ allowed: true });
    expect(Object.values(ctx.permissions).every((p) => p.allowed)).toBe(true);
  });

  it('lists IP pools and serves one', async () => {
    const list = await app.inject('/api/v1/namespaces/cpaas-system/ippools');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toMatchObject([{ name: 'demo-worker-pool', total: 6, used: 3, free: 3 }]);
    const one = await app.inject('/api/v1/namespaces/cpaas-system/ippools/demo-worker-pool');
    expect(one.statusCode).toBe(200);
  });

  it('serves raw objects for the YAML view', async () => {
    const res = await app.inject(
      '/api/v1/namespaces/cpaas-system/objects/MachineDeployment/demo-md-0',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      kind: 'MachineDeployment',
      metadata: { name: 'demo-md-0' },
    });
    const short = await app.inject('/api/v1/namespaces/cpaas-system/objects/md/demo-md-0');
    expect(short.statusCode).toBe(200);
  });

  it('publishes an OpenAPI document of every route', async () => {
    const res = await app.inject('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/session',
        '/api/v1/clusters',
        '/api/v1/clusters/{namespace}/{cluster}/context',
        '/api/v1/clusters/{namespace}/{cluster}/nodepools',
        '/api/v1/clusters/{namespace}/{cluster}/machines',
        '/api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}',
        '/api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/scale',
        '/api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/upgrade',
        '/api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/machines',
        '/api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/events',
        '/api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/diagnostics',
        '/api/v1/clusters/{namespace}/{cluster}/diagnostics',
        '/api/v1/namespaces/{namespace}/ippools',
        '/api/v1/namespaces/{namespace}/ippools/{name}',
        '/api/v1/namespaces/{namespace}/objects/{kind}/{name}',
        '/api/v1/stream',
      ]),
    );
  });

  it('exposes Prometheus metrics with informer and cache figures', async () => {
    const res = { body: await app.metrics.registry.metrics() };
    expect(res.body).toContain('dcs_bff_http_request_duration_seconds');
    expect(res.body).toContain('dcs_bff_cache_objects{kind="Machine"} 6');
    expect(res.body).toContain('dcs_bff_informer_lag_seconds');
  });

  it('sends strict security headers', async () => {
    const res = await app.inject('/api/v1/clusters');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
