import { ANNOTATION_PAUSED, type Plan } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { untilCached, useTestApp } from './support/harness';
import { mismatches, reader, readWritten } from './support/written';

/**
 * O-RESTART through `POST …/nodepools/{pool}/restart` (a worker pool's MachineDeployment, or the
 * control plane's KubeadmControlPlane) against the embedded cluster: Preview is the plan the
 * server accepted in its dry run, naming the machines replaced and their order; Apply writes
 * exactly it, with rolloutAfter from this server's clock (kubectl reads it back, v1beta2 serves it
 * as spec.rollout.after); someone else's change meanwhile is rebased or a 409; R-RESTART-2 refuses
 * a second restart while the first is due; bad times are refused naming `at`; the audit timeline
 * records it. No controllers run here: nothing rolls, which is what R-RESTART-2 then sees.
 */

const BASE = '/api/v1/clusters/cpaas-system/demo';
const NS = 'cpaas-system';
const MD = { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'MachineDeployment' } as const;
const KCP = {
  apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
  kind: 'KubeadmControlPlane',
} as const;

interface Shape {
  metadata: { resourceVersion: string; labels?: Record<string, string> };
  spec: { rolloutAfter?: string; rollout?: { after?: string } };
}
interface ErrorBody {
  code: string;
  details: { rule: string; path: string; severity: string }[];
}
type Issue = Plan['issues'][number];
const hour = 3_600_000;
const stamp = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;

describe('O-RESTART route', () => {
  const h = useTestApp({ app: { executor: { pollMs: 20 } } });
  const server = () => h.server();
  const md = () => server().get({ ...MD, name: 'demo-md-0', namespace: NS }) as unknown as Shape;
  const kcp = () =>
    server().get({ ...KCP, name: 'demo-control-plane', namespace: NS }) as unknown as Shape;
  const settle = async () => {
    await untilCached(h.app, 'MachineDeployment', NS, 'demo-md-0', md().metadata.resourceVersion);
    await untilCached(
      h.app,
      'KubeadmControlPlane',
      NS,
      'demo-control-plane',
      kcp().metadata.resourceVersion,
    );
  };
  const rules = (issues: readonly Issue[]) => issues.map((i) => `${i.rule} ${i.severity}`);
  /**
   * No controllers run here: what Cluster API would write after a spec change, that it has seen
   * the latest generation (else R-RESTART-2 sees a change not yet acted on, as on a real cluster).
   */
  const observe = async () => {
    for (const [ref, name] of [
      [MD, 'demo-md-0'],
      [KCP, 'demo-control-plane'],
    ] as const) {
      const o = server().get({ ...ref, name, namespace: NS }) as unknown as {
        metadata: { generation?: number };
      };
      await server().patch(
        { ...ref, name, namespace: NS },
        'merge',
        { status: { observedGeneration: o.metadata.generation } },
        { subresource: 'status' },
      );
    }
    await settle();
  };
  /**
   * Kubernetes writes times in whole seconds and Cluster API replaces what was created strictly
   * before rolloutAfter: a restart "now" in the same second as the seed would rightly name none of
   * its machines. Wait until the clock is past the second the newest machine was created in.
   */
  const pastCreation = async () => {
    const created = server()
      .list('cluster.x-k8s.io/v1beta1', 'Machine', NS)
      .map((m) => Date.parse(String(m.metadata.creationTimestamp)));
    const wait = Math.max(...created) + 1000 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  };
  const restart = (pool: string, body: unknown, dryRun = false) =>
    h.s.request('POST', `${BASE}/nodepools/${pool}/restart${dryRun ? '?dryRun=true' : ''}`, body);

  it('at a time: someone labelled the pool meanwhile: rebased and applied; someone scheduled another restart meanwhile: 409', async () => {
    await settle();
    const seen = md().metadata.resourceVersion;
    await server().patch({ ...MD, name: 'demo-md-0', namespace: NS }, 'merge', {
      metadata: { labels: { team: 'a' } },
    });
    await settle();
    const at = stamp(Date.now() + 2 * hour);
    const res = await restart('demo-md-0', { resourceVersion: seen, at });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ plan: Plan; rebased: { kind: string }[] }>();
    expect(body.rebased).toMatchObject([{ kind: 'MachineDeployment' }]);
    expect(body.plan.effects.restart).toMatchObject({ rolloutAfter: at, scheduled: true });
    expect(md().spec.rolloutAfter).toBe(at);
    expect(md().metadata.labels?.team).toBe('a');

    // Someone else moved the time meanwhile: the same field, theirs to look at again.
    await settle();
    const saw = md().metadata.resourceVersion;
    const theirs = stamp(Date.now() + 3 * hour);
    await server().patch({ ...MD, name: 'demo-md-0', namespace: NS }, 'merge', {
      spec: { rolloutAfter: theirs },
    });
    await settle();
    const conflict = await restart('demo-md-0', {
      resourceVersion: saw,
      at: stamp(Date.now() + 4 * hour),
    });
    expect(conflict.statusCode, conflict.body).toBe(409);
    expect(conflict.json<ErrorBody>().details[0]?.rule).toBe('R-PLAN-STALE');
    expect(md().spec.rolloutAfter).toBe(theirs);
  });

  it('restart now: Preview names the machines and their order and is the plan the server accepted; Apply writes rolloutAfter from this server’s clock; a second restart is refused while the first is due (R-RESTART-2)', async () => {
    await observe();
    await pastCreation();
    const before = Date.now();
    const body = { resourceVersion: md().metadata.resourceVersion };
    const dry = await restart('demo-md-0', body, true);
    expect(dry.statusCode, dry.body).toBe(200);
    const { verdict, ...plan } = dry.json<Plan>();
    expect(plan.operation).toBe('O-RESTART');
    expect(plan.steps.map((s) => [s.verb, s.kind, s.name])).toEqual([
      ['patch', 'MachineDeployment', 'demo-md-0'],
    ]);
    expect(verdict?.steps.map((v) => v.status)).toEqual(['accepted']);
    const effect = plan.effects.restart;
    expect(effect?.scheduled).toBe(false);
    expect(effect?.machines).toEqual([
      'demo-md-0-abc12-m0',
      'demo-md-0-abc12-m1',
      'demo-md-0-abc12-m2',
    ]);
    // The demo pool: maxSurge 0, maxUnavailable 1: one goes, then its replacement comes.
    expect(effect?.steps.slice(0, 2)).toEqual([
      { create: 0, delete: ['demo-md-0-abc12-m0'] },
      { create: 1, delete: [] },
    ]);
    expect(Date.parse(effect?.rolloutAfter ?? '')).toBeGreaterThanOrEqual(seconds(before));
    expect(Date.parse(effect?.rolloutAfter ?? '')).toBeLessThanOrEqual(Date.now());
    // The restart scheduled by the first test is replaced, and said so. R-POOL-1 as for an
    // upgrade: the seed's control plane draws on the same 6-entry pool (3 + 3 machines, and the
    // control plane's maxSurge 1 leaves no spare entry).
    expect(rules(plan.issues)).toEqual(['R-RESTART-4 warning', 'R-POOL-1 warning']);
    expect(plan.effects.notes?.map((n) => n.messageKey)).toContain('plan.effect.restartClockNow');
    expect(plan.kubectl[0]).toContain('kubectl patch machinedeployment');

    const real = await restart('demo-md-0', body);
    expect(real.statusCode, real.body).toBe(200);
    const applied = real.json<{ plan: Plan; execution: { ok: boolean } }>();
    expect(applied.execution.ok).toBe(true);
    const written = applied.plan.effects.restart?.rolloutAfter ?? '';
    // Apply took the time again: not before Preview's.
    expect(Date.parse(written)).toBeGreaterThanOrEqual(Date.parse(effect?.rolloutAfter ?? ''));
    expect(Date.parse(written)).toBeLessThanOrEqual(Date.now());
    expect(md().spec.rolloutAfter).toBe(written);
    const read = await readWritten(h.t.kubeconfig, applied.plan);
    expect(mismatches(applied.plan, read, new Set()), reader).toEqual([]);

    // Nothing rolls here (no controllers): the restart stays due, and another is refused.
    await observe();
    await new Promise((r) => setTimeout(r, 1100));
    const again = await restart(
      'demo-md-0',
      { resourceVersion: md().metadata.resourceVersion },
      true,
    );
    expect(again.statusCode, again.body).toBe(422);
    expect(again.json<ErrorBody>().details[0]).toMatchObject({
      rule: 'R-RESTART-2',
      severity: 'error',
    });
    expect(again.body).toContain('is still replacing machines');

    const timeline = await h.s.request('GET', `${BASE}/timeline`);
    expect(timeline.statusCode, timeline.body).toBe(200);
    expect(JSON.stringify(timeline.json())).toContain('O-RESTART');
  });

  it('the control plane, at a time: the KubeadmControlPlane’s rolloutAfter, served as v1beta2’s spec.rollout.after; R-PAUSE-1 when it is paused', async () => {
    await observe();
    const at = stamp(Date.now() + hour);
    const dry = await restart(
      'control-plane',
      { resourceVersion: kcp().metadata.resourceVersion, at },
      true,
    );
    expect(dry.statusCode, dry.body).toBe(200);
    const plan = dry.json<Plan>();
    expect(plan.target).toEqual({ kind: 'KubeadmControlPlane', name: 'demo-control-plane' });
    expect(plan.effects.restart).toMatchObject({
      order: 'ControlPlane',
      scheduled: true,
      machines: ['demo-control-plane-c0', 'demo-control-plane-c1', 'demo-control-plane-c2'],
    });
    expect(plan.effects.restart?.steps[0]).toEqual({ create: 1, delete: [] });

    const real = await restart('control-plane', {
      resourceVersion: kcp().metadata.resourceVersion,
      at,
    });
    expect(real.statusCode, real.body).toBe(200);
    expect(kcp().spec.rolloutAfter).toBe(at);
    const v2 = server().get({
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
      kind: 'KubeadmControlPlane',
      name: 'demo-control-plane',
      namespace: NS,
    }) as unknown as Shape | undefined;
    expect(v2?.spec.rollout?.after).toBe(at);

    // Paused: written, but nothing happens until it is resumed (R-PAUSE-1, as on every plan).
    await server().patch({ ...KCP, name: 'demo-control-plane', namespace: NS }, 'merge', {
      metadata: { annotations: { [ANNOTATION_PAUSED]: 'true' } },
    });
    await observe();
    const paused = await restart(
      'control-plane',
      { resourceVersion: kcp().metadata.resourceVersion, at: stamp(Date.now() + 2 * hour) },
      true,
    );
    expect(paused.statusCode, paused.body).toBe(200);
    expect(rules(paused.json<Plan>().issues)).toEqual([
      'R-RESTART-4 warning',
      'R-POOL-1 warning',
      'R-PAUSE-1 warning',
    ]);
  });

  it('refusals name the field and the rule: a past time (422 R-RESTART-3), a time that is none (400 at), an unknown field, an unknown pool (404)', async () => {
    await observe();
    const rv = kcp().metadata.resourceVersion;
    const past = await restart(
      'control-plane',
      { resourceVersion: rv, at: stamp(Date.now() - hour) },
      true,
    );
    expect(past.statusCode, past.body).toBe(422);
    expect(past.json<ErrorBody>().details[0]).toMatchObject({ rule: 'R-RESTART-3', path: 'at' });
    const none = await restart('control-plane', { resourceVersion: rv, at: 'tonight' }, true);
    expect(none.statusCode, none.body).toBe(400);
    expect(none.json<ErrorBody>().details[0]).toMatchObject({ rule: 'R-RESTART-3', path: 'at' });
    const unknown = await restart('control-plane', { resourceVersion: rv, when: 'now' }, true);
    expect(unknown.statusCode, unknown.body).toBe(400);
    expect(unknown.json<ErrorBody>().details[0]?.path).toBe('when');
    const missing = await restart('nope', { resourceVersion: '1' }, true);
    expect(missing.statusCode, missing.body).toBe(404);
  });
});
