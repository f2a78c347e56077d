import {
  ANNOTATION_AUTOSCALER_MAX_SIZE,
  ANNOTATION_AUTOSCALER_MIN_SIZE,
  type ClusterAutoscalerView,
  type NodePoolView,
  type Plan,
} from '@dcs/domain';
import { WorkloadClusters, type WorkloadCluster } from '@dcs/simulator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { untilCached, useTestApp } from './support/harness';
import { TestSession } from './support/session';
import { mismatches, reader, readWritten } from './support/written';

/**
 * O-AUTOSCALE / O-AUTOSCALE-REMOVE through `POST …/nodepools/{pool}/autoscale` against the
 * embedded cluster: Preview returns the plan the server accepted in its dry run, Apply writes
 * exactly it (read back as kubectl would), the card shows the bounds, a manual scale outside them
 * is refused and inside them warned (R-AS-7), someone else's change meanwhile is rebased or a 409,
 * bad input is a 400 or 422 naming the field and the rule, a viewer is refused, v1beta2 alike, the
 * audit timeline records it; and `GET …/autoscaler`: the autoscaler's status ConfigMap of the
 * workload cluster, read through its kubeconfig Secret, in both of upstream's formats.
 */

const NS = 'cpaas-system';
const BASE = `/api/v1/clusters/${NS}/demo`;
const URL = `${BASE}/nodepools/demo-md-0/autoscale`;
const MD = { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'MachineDeployment' } as const;
const MIN = ANNOTATION_AUTOSCALER_MIN_SIZE;
const MAX = ANNOTATION_AUTOSCALER_MAX_SIZE;

interface Shape {
  metadata: { resourceVersion: string; annotations?: Record<string, string> };
  spec: { replicas?: number };
}
interface ErrorBody {
  code: string;
  details: { rule: string; path: string; severity: string; message: string }[];
}
const rules = (issues: readonly { rule: string; severity: string }[]) =>
  issues.map((i) => `${i.rule} ${i.severity}`);

describe('O-AUTOSCALE / O-AUTOSCALE-REMOVE routes', () => {
  const h = useTestApp({ app: { executor: { pollMs: 20 } } });
  const md = () => h.server().get({ ...MD, name: 'demo-md-0', namespace: NS }) as unknown as Shape;
  const settle = () =>
    untilCached(h.app, 'MachineDeployment', NS, 'demo-md-0', md().metadata.resourceVersion);
  const rv = () => md().metadata.resourceVersion;

  it('O-AUTOSCALE: Preview is the plan the server accepted, Apply writes it, the card shows the bounds; a scale outside is refused, inside warned; O-AUTOSCALE-REMOVE; all on the timeline', async () => {
    await settle();
    const body = { resourceVersion: rv(), minSize: 2, maxSize: 3 };
    const dry = await h.s.request('POST', `${URL}?dryRun=true`, body);
    expect(dry.statusCode, dry.body).toBe(200);
    const { verdict, ...plan } = dry.json<Plan>();
    expect(plan.operation).toBe('O-AUTOSCALE');
    expect(plan.steps.map((s) => [s.verb, s.kind, s.name])).toEqual([
      ['patch', 'MachineDeployment', 'demo-md-0'],
    ]);
    expect(verdict?.steps.map((v) => v.status)).toEqual(['accepted']);
    expect(plan.kubectl[0]).toMatch(/^kubectl patch machinedeployments?\S* demo-md-0 /);
    expect(plan.kubectl[0]).toContain('cluster-api-autoscaler-node-group-max-size');
    expect(md().metadata.annotations ?? {}).not.toHaveProperty(MIN);

    const real = await h.s.request('POST', URL, body);
    expect(real.statusCode, real.body).toBe(200);
    const applied = real.json<{ plan: Plan; execution: { ok: boolean } }>();
    expect(applied.execution.ok).toBe(true);
    expect(applied.plan).toEqual(plan);
    const read = await readWritten(h.t.kubeconfig, plan);
    expect(mismatches(plan, read, new Set()), reader).toEqual([]);
    expect(md().metadata.annotations).toMatchObject({ [MIN]: '2', [MAX]: '3' });

    // The card: the bounds the autoscaler will use.
    await settle();
    const pools = await h.s.request('GET', `${BASE}/nodepools`);
    const card = pools.json<NodePoolView[]>().find((p) => p.id === 'demo-md-0');
    expect(card?.autoscaler).toEqual({
      minSize: '2',
      maxSize: '3',
      bounds: { minSize: 2, maxSize: 3 },
      scaleFromZero: false,
    });

    // R-AS-7: outside the bounds a scale is refused (422), inside it warns.
    const outside = await h.s.request('POST', `${BASE}/nodepools/demo-md-0/scale?dryRun=true`, {
      replicas: 1,
      resourceVersion: rv(),
    });
    expect(outside.statusCode, outside.body).toBe(422);
    const refused = outside.json<ErrorBody>().details.find((d) => d.rule === 'R-AS-7');
    expect(refused).toMatchObject({ path: 'replicas', severity: 'error' });
    expect(refused?.message).toContain('below the autoscaler’s minSize 2');
    const inside = await h.s.request('POST', `${BASE}/nodepools/demo-md-0/scale?dryRun=true`, {
      replicas: 2,
      resourceVersion: rv(),
    });
    expect(inside.statusCode, inside.body).toBe(200);
    expect(rules(inside.json<Plan>().issues)).toContain('R-AS-7 warning');

    // O-AUTOSCALE-REMOVE: both annotations go, replicas stay.
    const before = md().spec.replicas;
    const removed = await h.s.request('POST', URL, {
      resourceVersion: rv(),
      minSize: null,
      maxSize: null,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json<{ plan: Plan }>().plan.operation).toBe('O-AUTOSCALE-REMOVE');
    expect(md().metadata.annotations ?? {}).not.toHaveProperty(MIN);
    expect(md().metadata.annotations ?? {}).not.toHaveProperty(MAX);
    expect(md().spec.replicas).toBe(before);

    const timeline = await h.s.request('GET', `${BASE}/timeline`);
    expect(timeline.statusCode, timeline.body).toBe(200);
    const text = JSON.stringify(timeline.json());
    expect(text).toContain('O-AUTOSCALE');
    expect(text).toContain('O-AUTOSCALE-REMOVE');
  });

  it('R-AS-4: bounds around replicas outside them are a 422; with replicas in the same request, applied', async () => {
    await settle();
    const out = await h.s.request('POST', `${URL}?dryRun=true`, {
      resourceVersion: rv(),
      minSize: 5,
      maxSize: 6,
    });
    expect(out.statusCode, out.body).toBe(422);
    expect(out.json<ErrorBody>().details[0]).toMatchObject({ rule: 'R-AS-4', path: 'minSize' });
    const moved = await h.s.request('POST', URL, {
      resourceVersion: rv(),
      minSize: 1,
      maxSize: 2,
      replicas: 2,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(md().spec.replicas).toBe(2);
    expect(md().metadata.annotations).toMatchObject({ [MIN]: '1', [MAX]: '2' });
  });

  it('someone else labelled the pool meanwhile: rebased and applied; someone else changed the bounds meanwhile: 409', async () => {
    await settle();
    const seen = rv();
    await h.server().patch({ ...MD, name: 'demo-md-0', namespace: NS }, 'merge', {
      metadata: { labels: { team: 'a' } },
    });
    await settle();
    const res = await h.s.request('POST', URL, { resourceVersion: seen, minSize: 1, maxSize: 3 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ rebased: { kind: string }[] }>().rebased).toMatchObject([
      { kind: 'MachineDeployment' },
    ]);
    expect(md().metadata.annotations).toMatchObject({ [MAX]: '3' });

    await settle();
    const saw = rv();
    await h.server().patch({ ...MD, name: 'demo-md-0', namespace: NS }, 'merge', {
      metadata: { annotations: { [MAX]: '7' } },
    });
    await settle();
    const conflict = await h.s.request('POST', URL, {
      resourceVersion: saw,
      minSize: 1,
      maxSize: 2,
    });
    expect(conflict.statusCode, conflict.body).toBe(409);
    expect(conflict.json<ErrorBody>().details[0]?.rule).toBe('R-PLAN-STALE');
    expect(md().metadata.annotations?.[MAX]).toBe('7');
  });

  it('bad input: a 400 naming the field and the rule (negative, not whole, only one, unknown key); min above max a 422 (R-AS-3); the control plane a 400, an unknown pool a 404', async () => {
    const cases: [unknown, string, string][] = [
      [{ minSize: -1, maxSize: 3 }, 'R-AS-1', 'minSize'],
      [{ minSize: 1, maxSize: 2.5 }, 'R-AS-1', 'maxSize'],
      [{ minSize: '1', maxSize: 3 }, 'R-AS-1', 'minSize'],
      [{ minSize: 1 }, 'R-AS-2', 'maxSize'],
      [{ maxSize: 1, minSize: null }, 'R-AS-2', 'minSize'],
    ];
    for (const [fields, rule, path] of cases) {
      const res = await h.s.request('POST', `${URL}?dryRun=true`, {
        resourceVersion: '1',
        ...(fields as object),
      });
      expect(res.statusCode, `${JSON.stringify(fields)}: ${res.body}`).toBe(400);
      expect(res.json<ErrorBody>().details[0]).toMatchObject({ rule, path });
    }
    // A __proto__ key is refused before any schema sees it (the body parser's protoAction).
    const proto = await h.s.request(
      'POST',
      `${URL}?dryRun=true`,
      JSON.parse('{"resourceVersion":"1","minSize":1,"maxSize":2,"__proto__":{"admin":true}}'),
    );
    expect(proto.statusCode, proto.body).toBe(400);
    expect(proto.json<ErrorBody>().details[0]?.rule).toBe('R-REQUEST');
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    await settle();
    const above = await h.s.request('POST', `${URL}?dryRun=true`, {
      resourceVersion: rv(),
      minSize: 4,
      maxSize: 2,
    });
    expect(above.statusCode, above.body).toBe(422);
    expect(above.json<ErrorBody>().details[0]).toMatchObject({ rule: 'R-AS-3', path: 'maxSize' });
    const cp = await h.s.request('POST', `${BASE}/nodepools/control-plane/autoscale?dryRun=true`, {
      resourceVersion: '1',
      minSize: 1,
      maxSize: 3,
    });
    expect(cp.statusCode, cp.body).toBe(400);
    const missing = await h.s.request('POST', `${BASE}/nodepools/nope/autoscale?dryRun=true`, {
      resourceVersion: '1',
      minSize: 1,
      maxSize: 3,
    });
    expect(missing.statusCode, missing.body).toBe(404);
  });
});

describe('O-AUTOSCALE for a viewer (token mode)', () => {
  const h = useTestApp({ app: { mode: 'token' } });

  it('is refused with 403 before any plan, dry run included, and the context says which access review refused it', async () => {
    const s = new TestSession(h.app);
    await s.signIn(h.t.cluster.viewerToken);
    for (const q of ['', '?dryRun=true']) {
      const res = await s.request('POST', `${URL}${q}`, {
        resourceVersion: '1',
        minSize: 1,
        maxSize: 3,
      });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json<ErrorBody>().details.every((d) => d.rule === 'R-AUTH')).toBe(true);
    }
    const ctx = await s.request('GET', `${BASE}/context`);
    const { permissions } = ctx.json<{
      permissions: Record<
        string,
        { allowed: boolean; denied?: { verb: string; resource: string }[] }
      >;
    }>();
    expect(permissions.autoscalePool).toMatchObject({
      allowed: false,
      denied: [{ verb: 'patch', resource: 'machinedeployments' }],
    });
    const operator = new TestSession(h.app);
    await operator.signIn(h.t.cluster.operatorToken);
    const op = await operator.request('GET', `${BASE}/context`);
    expect(op.json<{ permissions: Record<string, unknown> }>().permissions.autoscalePool).toEqual({
      allowed: true,
    });
  });
});

describe('O-AUTOSCALE on Cluster API v1.14 (v1beta2 stored)', () => {
  const h = useTestApp({ cluster: { capiRelease: 'v1.14' }, app: { executor: { pollMs: 20 } } });
  const V2 = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment' } as const;
  const md = () => h.server().get({ ...V2, name: 'demo-md-0', namespace: NS }) as unknown as Shape;

  it('the same annotations are written through v1beta2, previewed in it', async () => {
    await untilCached(h.app, 'MachineDeployment', NS, 'demo-md-0', md().metadata.resourceVersion);
    const body = { resourceVersion: md().metadata.resourceVersion, minSize: 1, maxSize: 3 };
    const dry = await h.s.request('POST', `${URL}?dryRun=true`, body);
    expect(dry.statusCode, dry.body).toBe(200);
    const plan = dry.json<Plan>();
    expect(plan.verdict?.ok, JSON.stringify(plan.verdict)).toBe(true);
    expect(plan.kubectl.join('\n')).toContain('machinedeployments.v1beta2.cluster.x-k8s.io');
    const real = await h.s.request('POST', URL, body);
    expect(real.statusCode, real.body).toBe(200);
    expect(md().metadata.annotations).toMatchObject({ [MIN]: '1', [MAX]: '3' });
  });
});

/* ------------------------------------------------------------------------------------------ */

const STATUS_YAML = `time: "2026-12-07 10:00:00.5 +0000 UTC"
autoscalerStatus: "Running"
clusterWide:
  health:
    status: "Healthy"
    nodeCounts:
      registered:
        total: 3
        ready: 3
    lastProbeTime: "2026-12-07T10:00:00Z"
    lastTransitionTime: "2026-12-07T09:00:00Z"
nodeGroups:
  -
    name: "MachineDeployment/cpaas-system/demo-md-0"
    health:
      status: "Healthy"
      nodeCounts:
        registered:
          total: 3
          ready: 3
      cloudProviderTarget: 3
      minSize: 1
      maxSize: 5
      lastProbeTime: "2026-12-07T10:00:00Z"
      lastTransitionTime: "2026-12-07T09:00:00Z"
    scaleUp:
      status: "NoActivity"
      lastProbeTime: "2026-12-07T10:00:00Z"
      lastTransitionTime: "2026-12-07T09:30:00Z"
    scaleDown:
      status: "NoCandidates"
      lastProbeTime: "2026-12-07T10:00:00Z"
      lastTransitionTime: "2026-12-07T09:45:00Z"
`;

const STATUS_TEXT = `Cluster-autoscaler status at 2026-12-07 10:00:00.5 +0000 UTC:
Cluster-wide:
  Health:      Healthy (ready=3 unready=0 notStarted=0 longNotStarted=0 registered=3 longUnregistered=0)
               LastProbeTime:      2026-12-07 10:00:00.5 +0000 UTC m=+10.0
               LastTransitionTime: 2026-12-07 09:00:00 +0000 UTC m=+1.0

NodeGroups:
  Name:        MachineDeployment/cpaas-system/demo-md-0
  Health:      Healthy (ready=3 unready=0 notStarted=0 longNotStarted=0 registered=3 longUnregistered=0 cloudProviderTarget=3 (minSize=1, maxSize=5))
               LastProbeTime:      2026-12-07 10:00:00.5 +0000 UTC m=+10.0
               LastTransitionTime: 2026-12-07 09:00:00 +0000 UTC m=+1.0
  ScaleUp:     InProgress (ready=3 cloudProviderTarget=4)
               LastProbeTime:      2026-12-07 10:00:00.5 +0000 UTC m=+10.0
               LastTransitionTime: 2026-12-07 09:58:00 +0000 UTC m=+9.0
`;

describe('GET …/autoscaler: the cluster autoscaler’s status ConfigMap of the workload cluster', () => {
  let t: TestCluster;
  let app: FastifyInstance;
  let token: FastifyInstance;
  const workloads = new WorkloadClusters();
  let wc: WorkloadCluster;
  const CM = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    namespace: 'kube-system',
    name: 'cluster-autoscaler-status',
  };

  beforeAll(async () => {
    t = await startTestCluster();
    app = await buildTestApp(t);
    token = await buildTestApp(t, { mode: 'token' });
    const running = await workloads.ensure(NS, 'demo');
    if (!running) throw new Error('no workload cluster');
    wc = running;
  }, 90_000);
  afterAll(async () => {
    await app.close();
    await token.close();
    await workloads.close();
    await t.close();
  });

  const get = async (a: FastifyInstance = app, headers: Record<string, string> = {}) => {
    const res = await a.inject({ method: 'GET', url: `${BASE}/autoscaler`, headers });
    return res;
  };
  async function eventually(check: (v: ClusterAutoscalerView) => boolean) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const v = (await get()).json<ClusterAutoscalerView>();
      if (check(v)) return v;
      if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  async function writeStatus(status: string) {
    const body = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: CM.name,
        namespace: CM.namespace,
        annotations: {
          'cluster-autoscaler.kubernetes.io/last-updated': '2026-12-07 10:00:00.5 +0000 UTC',
        },
      },
      data: { status },
    };
    if (wc.server.client.get(CM)) await wc.server.client.delete(CM);
    await wc.server.client.create(body);
  }

  it('no kubeconfig Secret yet: says so; with it but no ConfigMap: found false (no autoscaler writes one)', async () => {
    const none = await get();
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toMatchObject({ status: 'no-kubeconfig', secret: `${NS}/demo-kubeconfig` });
    await t.cluster.server.client.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'demo-kubeconfig', namespace: NS },
      type: 'cluster.x-k8s.io/secret',
      data: { value: Buffer.from(wc.kubeconfig).toString('base64') },
    });
    // The BFF reads the Secret again at most every minute: a fresh app reads it now.
    await app.close();
    app = await buildTestApp(t);
    const empty = await eventually((v) => v.status === 'ok');
    expect(empty).toEqual({
      status: 'ok',
      secret: `${NS}/demo-kubeconfig`,
      configMap: 'kube-system/cluster-autoscaler-status',
      found: false,
    });
  });

  it('upstream’s YAML format: the pool’s node group with its health, min/max/target and last scale-up/down; an unchanged poll is a 304', async () => {
    await writeStatus(STATUS_YAML);
    const v = await eventually((x) => x.status === 'ok' && x.found);
    if (v.status !== 'ok' || !v.document) throw new Error(JSON.stringify(v));
    expect(v.lastUpdated).toBe('2026-12-07 10:00:00.5 +0000 UTC');
    expect(v.document.format).toBe('yaml');
    expect(v.document.nodeGroups).toEqual([
      {
        name: 'MachineDeployment/cpaas-system/demo-md-0',
        health: {
          status: 'Healthy',
          ready: 3,
          registered: 3,
          target: 3,
          minSize: 1,
          maxSize: 5,
          lastProbeTime: '2026-12-07T10:00:00.000Z',
          lastTransitionTime: '2026-12-07T09:00:00.000Z',
        },
        scaleUp: {
          status: 'NoActivity',
          lastProbeTime: '2026-12-07T10:00:00.000Z',
          lastTransitionTime: '2026-12-07T09:30:00.000Z',
        },
        scaleDown: {
          status: 'NoCandidates',
          lastProbeTime: '2026-12-07T10:00:00.000Z',
          lastTransitionTime: '2026-12-07T09:45:00.000Z',
        },
      },
    ]);
    const first = await get();
    const etag = first.headers.etag;
    expect(typeof etag).toBe('string');
    const again = await get(app, { 'if-none-match': String(etag) });
    expect(again.statusCode).toBe(304);
  });

  it('the legacy text format is read too; a document in neither format is said, not shown empty', async () => {
    await writeStatus(STATUS_TEXT);
    const v = await eventually((x) => x.status === 'ok' && x.document?.format === 'text');
    if (v.status !== 'ok') throw new Error('not ok');
    expect(v.document?.nodeGroups[0]).toMatchObject({
      name: 'MachineDeployment/cpaas-system/demo-md-0',
      health: { status: 'Healthy', target: 3, minSize: 1, maxSize: 5 },
      scaleUp: { status: 'InProgress', lastTransitionTime: '2026-12-07T09:58:00.000Z' },
    });
    await writeStatus('&a [*a, *a, *a]');
    const bad = await eventually((x) => x.status === 'ok' && x.error !== undefined);
    expect(bad).toMatchObject({ found: true });
    expect(bad.status === 'ok' && bad.document).toBeFalsy();
  });

  it('a viewer, who may not read the kubeconfig Secret, is told why, not shown the status', async () => {
    const s = new TestSession(token);
    await s.signIn(t.cluster.viewerToken);
    const res = await s.request('GET', `${BASE}/autoscaler`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'forbidden', secret: `${NS}/demo-kubeconfig` });
  });
});
