import { ANNOTATION_PAUSED, type Plan } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { untilCached, useTestApp } from './support/harness';
import { mismatches, reader, readWritten } from './support/written';

/**
 * O-PAUSE / O-RESUME through `POST …/pause` (a cluster) and `POST …/nodepools/{pool}/pause` (one
 * pool) against the embedded cluster: Preview returns the plan the server accepted in its dry run,
 * Apply writes exactly it (kubectl reads it back), every other operation on a paused cluster or
 * pool warns that nothing happens until it is resumed (R-PAUSE-1), a pool resumed in a paused
 * cluster is warned it stays paused (R-PAUSE-2), someone else's change meanwhile is rebased or a
 * 409, and the audit timeline records each of them.
 */

const BASE = '/api/v1/clusters/cpaas-system/demo';
const NS = 'cpaas-system';
const CLUSTER = { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'Cluster' } as const;
const MD = { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'MachineDeployment' } as const;

interface Shape {
  metadata: { resourceVersion: string; annotations?: Record<string, string> };
  spec: { paused?: boolean; replicas?: number };
}
interface ErrorBody {
  code: string;
  details: { rule: string; path: string; severity: string }[];
  conflict?: { fields: string[] };
}
type Issue = Plan['issues'][number];

describe('O-PAUSE / O-RESUME routes', () => {
  const h = useTestApp({ app: { executor: { pollMs: 20 } } });
  const server = () => h.server();
  const cluster = () =>
    server().get({ ...CLUSTER, name: 'demo', namespace: NS }) as unknown as Shape;
  const md = () => server().get({ ...MD, name: 'demo-md-0', namespace: NS }) as unknown as Shape;
  const settle = async () => {
    await untilCached(h.app, 'Cluster', NS, 'demo', cluster().metadata.resourceVersion);
    await untilCached(h.app, 'MachineDeployment', NS, 'demo-md-0', md().metadata.resourceVersion);
  };
  const rules = (issues: readonly Issue[]) => issues.map((i) => `${i.rule} ${i.severity}`);

  it('O-PAUSE of a cluster: Preview is the plan the server accepted, Apply writes it; a scale then warns R-PAUSE-1; O-RESUME removes spec.paused', async () => {
    await settle();
    const body = { resourceVersion: cluster().metadata.resourceVersion, paused: true };
    const dry = await h.s.request('POST', `${BASE}/pause?dryRun=true`, body);
    expect(dry.statusCode, dry.body).toBe(200);
    const { verdict, ...plan } = dry.json<Plan>();
    expect(plan.operation).toBe('O-PAUSE');
    expect(plan.steps.map((s) => [s.verb, s.kind, s.name])).toEqual([['patch', 'Cluster', 'demo']]);
    expect(verdict?.steps.map((v) => v.status)).toEqual(['accepted']);
    expect(plan.effects.notes?.map((n) => n.messageKey)).toContain('plan.effect.pauseCluster');
    expect(cluster().spec.paused).toBeUndefined();

    const real = await h.s.request('POST', `${BASE}/pause`, body);
    expect(real.statusCode, real.body).toBe(200);
    const applied = real.json<{ plan: Plan; execution: { ok: boolean } }>();
    expect(applied.execution.ok).toBe(true);
    expect(applied.plan).toEqual(plan);
    const read = await readWritten(h.t.kubeconfig, plan);
    expect(mismatches(plan, read, new Set()), reader).toEqual([]);
    expect(cluster().spec.paused).toBe(true);

    // R-PAUSE-1: a scale of the paused cluster's pool is written, but says nothing will happen.
    await settle();
    const scale = await h.s.request('POST', `${BASE}/nodepools/demo-md-0/scale?dryRun=true`, {
      replicas: 2,
      resourceVersion: md().metadata.resourceVersion,
    });
    expect(scale.statusCode, scale.body).toBe(200);
    const scalePlan = scale.json<Plan>();
    expect(rules(scalePlan.issues)).toContain('R-PAUSE-1 warning');
    expect(scalePlan.issues.find((i) => i.rule === 'R-PAUSE-1')?.message).toContain(
      'Cluster demo is paused',
    );

    // R-PAUSE-2: resuming the pool alone leaves it paused through the cluster.
    const poolPause = await h.s.request('POST', `${BASE}/nodepools/demo-md-0/pause`, {
      resourceVersion: md().metadata.resourceVersion,
      paused: true,
    });
    expect(poolPause.statusCode, poolPause.body).toBe(200);
    expect(md().metadata.annotations?.[ANNOTATION_PAUSED]).toBe('true');
    await settle();
    const poolResume = await h.s.request('POST', `${BASE}/nodepools/demo-md-0/pause?dryRun=true`, {
      resourceVersion: md().metadata.resourceVersion,
      paused: false,
    });
    expect(poolResume.statusCode, poolResume.body).toBe(200);
    expect(rules(poolResume.json<Plan>().issues)).toEqual(['R-PAUSE-2 warning']);

    const resume = await h.s.request('POST', `${BASE}/pause`, {
      resourceVersion: cluster().metadata.resourceVersion,
      paused: false,
    });
    expect(resume.statusCode, resume.body).toBe(200);
    expect(resume.json<{ plan: Plan }>().plan.operation).toBe('O-RESUME');
    expect(cluster().spec).not.toHaveProperty('paused');
    await settle();
    const unpause = await h.s.request('POST', `${BASE}/nodepools/demo-md-0/pause`, {
      resourceVersion: md().metadata.resourceVersion,
      paused: false,
    });
    expect(unpause.statusCode, unpause.body).toBe(200);
    expect(md().metadata.annotations ?? {}).not.toHaveProperty(ANNOTATION_PAUSED);

    // The audit timeline has each of them.
    const timeline = await h.s.request('GET', `${BASE}/timeline`);
    expect(timeline.statusCode, timeline.body).toBe(200);
    const ops = JSON.stringify(timeline.json());
    expect(ops).toContain('O-PAUSE');
    expect(ops).toContain('O-RESUME');
  });

  it('O-PAUSE of a pool: someone else scaled meanwhile: rebased and applied; someone else paused it meanwhile: 409', async () => {
    await settle();
    const seen = md().metadata.resourceVersion;
    await server().patch({ ...MD, name: 'demo-md-0', namespace: NS }, 'merge', {
      spec: { replicas: 4 },
    });
    await settle();
    const res = await h.s.request('POST', `${BASE}/nodepools/demo-md-0/pause`, {
      resourceVersion: seen,
      paused: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ rebased: { kind: string }[] }>().rebased).toMatchObject([
      { kind: 'MachineDeployment' },
    ]);
    expect(md().spec.replicas).toBe(4);
    expect(md().metadata.annotations?.[ANNOTATION_PAUSED]).toBe('true');

    // Someone resumed it meanwhile; this user, who saw it paused, asks to resume it too: the same
    // field was changed by them, so it is theirs to look at again.
    await settle();
    const saw = md().metadata.resourceVersion;
    await server().patch({ ...MD, name: 'demo-md-0', namespace: NS }, 'merge', {
      metadata: { annotations: { [ANNOTATION_PAUSED]: null } },
    });
    await server().patch({ ...MD, name: 'demo-md-0', namespace: NS }, 'merge', {
      metadata: { annotations: { [ANNOTATION_PAUSED]: 'again' } },
    });
    await settle();
    const conflict = await h.s.request('POST', `${BASE}/nodepools/demo-md-0/pause`, {
      resourceVersion: saw,
      paused: false,
    });
    expect(conflict.statusCode, conflict.body).toBe(409);
    const body = conflict.json<ErrorBody>();
    expect(body.details[0]?.rule).toBe('R-PLAN-STALE');
    expect(md().metadata.annotations?.[ANNOTATION_PAUSED]).toBe('again');
  });

  it('O-PAUSE of a cluster seen a few versions ago (its status moved, someone labelled it): rebased and applied', async () => {
    await settle();
    const seen = cluster().metadata.resourceVersion;
    await server().patch({ ...CLUSTER, name: 'demo', namespace: NS }, 'merge', {
      metadata: { labels: { team: 'a' } },
    });
    await settle();
    const res = await h.s.request('POST', `${BASE}/pause`, { resourceVersion: seen, paused: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ rebased: { kind: string }[] }>().rebased).toMatchObject([
      { kind: 'Cluster' },
    ]);
    expect(cluster().spec.paused).toBe(true);
    await settle();
    const back = await h.s.request('POST', `${BASE}/pause`, {
      resourceVersion: cluster().metadata.resourceVersion,
      paused: false,
    });
    expect(back.statusCode, back.body).toBe(200);
  });

  it('O-PAUSE of the control plane annotates its KubeadmControlPlane; an unknown pool is a 404, a bad body a 400 naming the field', async () => {
    const kcp = () =>
      server().get({
        apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
        kind: 'KubeadmControlPlane',
        name: 'demo-control-plane',
        namespace: NS,
      }) as unknown as Shape;
    const dry = await h.s.request('POST', `${BASE}/nodepools/control-plane/pause?dryRun=true`, {
      resourceVersion: kcp().metadata.resourceVersion,
      paused: true,
    });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json<Plan>().target).toEqual({
      kind: 'KubeadmControlPlane',
      name: 'demo-control-plane',
    });
    const missing = await h.s.request('POST', `${BASE}/nodepools/nope/pause?dryRun=true`, {
      resourceVersion: '1',
      paused: true,
    });
    expect(missing.statusCode, missing.body).toBe(404);
    const bad = await h.s.request('POST', `${BASE}/pause?dryRun=true`, {
      resourceVersion: '1',
      paused: 'yes',
    });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json<ErrorBody>().details[0]).toMatchObject({ path: 'paused' });
  });
});
