import { parseGoDuration, type Plan } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { untilCached, useTestApp } from './support/harness';
import { mismatches, reader, readWritten } from './support/written';

/**
 * O-EDIT-STRATEGY through `POST …/nodepools/{pool}/strategy` against the embedded cluster: the
 * dry-run plan (every step accepted by the server), the real request (the applied plan is the
 * previewed one, and kubectl reads back what its diffs say), the rules' refusals (R-MD-2,
 * R-MD-3), and someone else's change meanwhile: rebased when it touched other fields, 409 when
 * the same field.
 */

const BASE = '/api/v1/clusters/cpaas-system/demo';
const URL = `${BASE}/nodepools/demo-md-0/strategy`;
const NS = 'cpaas-system';
const MD = { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'MachineDeployment' } as const;

interface MdShape {
  metadata: { resourceVersion: string; labels?: Record<string, string> };
  spec: {
    replicas: number;
    strategy: { rollingUpdate: { maxSurge: number | string; maxUnavailable: number | string } };
    template: { spec: Record<string, unknown> };
  };
}

/**
 * A duration as a length of time: a server of Cluster API ≥ v1.11 stores whole seconds and prints
 * v1beta1's durations as Go does ('10m' is read back as '10m0s'), v1.10 keeps the text sent.
 */
const ns = (d: unknown) => (typeof d === 'string' ? parseGoDuration(d) : d);
const durations = (spec: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(spec).map(([k, v]) => [k, k.endsWith('Timeout') ? ns(v) : v]));

interface ErrorBody {
  code: string;
  message: string;
  details: { rule: string; path: string; severity: string }[];
  conflict?: { fields: string[]; theirs: MdShape; yours: MdShape };
}

describe('O-EDIT-STRATEGY route', () => {
  const h = useTestApp({ app: { executor: { pollMs: 20 } } });
  const server = () => h.server();
  const md = () => server().get({ ...MD, name: 'demo-md-0', namespace: NS }) as unknown as MdShape;
  const someoneElsePatches = (patch: Record<string, unknown>) =>
    server().patch({ ...MD, name: 'demo-md-0', namespace: NS }, 'merge', patch);

  /** Until the app's cache holds the server's current version of the object. */
  const settle = () =>
    untilCached(h.app, 'MachineDeployment', NS, 'demo-md-0', md().metadata.resourceVersion);

  it('O-EDIT-STRATEGY: Preview returns the plan the server accepted; Apply writes exactly it, and kubectl reads it back', async () => {
    await settle();
    const body = {
      resourceVersion: md().metadata.resourceVersion,
      maxUnavailable: 2,
      nodeDrainTimeout: '10m',
      nodeVolumeDetachTimeout: '3m',
    };
    const dry = await h.s.request('POST', `${URL}?dryRun=true`, body);
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.headers['x-dry-run']).toBe('true');
    const { verdict, ...plan } = dry.json<Plan>();
    expect(plan.operation).toBe('O-EDIT-STRATEGY');
    expect(plan.steps.map((x) => [x.verb, x.kind, x.name])).toEqual([
      ['patch', 'MachineDeployment', 'demo-md-0'],
    ]);
    expect(verdict?.ok, JSON.stringify(verdict)).toBe(true);
    expect(verdict?.steps.map((v) => v.status)).toEqual(['accepted']);
    expect(plan.effects.notes?.map((n) => n.messageKey)).toContain('plan.effect.strategyInPlace');
    // The dry run changed nothing.
    expect(md().metadata.resourceVersion).toBe(body.resourceVersion);

    const real = await h.s.request('POST', URL, body);
    expect(real.statusCode, real.body).toBe(200);
    const applied = real.json<{ plan: Plan; execution: { ok: boolean } }>();
    expect(applied.execution.ok).toBe(true);
    expect(applied.plan).toEqual(plan);
    const read = await readWritten(h.t.kubeconfig, plan);
    expect(mismatches(plan, read, new Set()), reader).toEqual([]);
    const after = md();
    expect(after.spec.strategy.rollingUpdate).toEqual({ maxSurge: 0, maxUnavailable: 2 });
    expect(durations(after.spec.template.spec)).toMatchObject({
      nodeDrainTimeout: ns('10m'),
      nodeDeletionTimeout: ns('5m'),
      nodeVolumeDetachTimeout: ns('3m'),
    });
    expect(after.spec.replicas).toBe(3);
  });

  it('O-EDIT-STRATEGY: a timeout sent as null is removed from the MachineDeployment (JSON patch remove), and Apply writes the previewed plan', async () => {
    await settle();
    const before = md();
    expect(before.spec.template.spec).toHaveProperty('nodeDrainTimeout');
    const body = { resourceVersion: before.metadata.resourceVersion, nodeDrainTimeout: null };
    const dry = await h.s.request('POST', `${URL}?dryRun=true`, body);
    expect(dry.statusCode, dry.body).toBe(200);
    const { verdict, ...plan } = dry.json<Plan>();
    expect(verdict?.steps.map((v) => v.status)).toEqual(['accepted']);
    expect(plan.effects.notes?.map((n) => n.messageKey)).toContain(
      'plan.effect.strategyFieldsRemoved',
    );
    const real = await h.s.request('POST', URL, body);
    expect(real.statusCode, real.body).toBe(200);
    const after = md();
    expect(after.spec.template.spec).not.toHaveProperty('nodeDrainTimeout');
    // Everything else is as it was.
    expect(after.spec.template.spec.nodeDeletionTimeout).toBe(
      before.spec.template.spec.nodeDeletionTimeout,
    );
    expect(after.spec.strategy).toEqual(before.spec.strategy);
  });

  it('O-EDIT-STRATEGY with R-MD-3: maxSurge 1 on a pool with persistent disks is a 422 naming the rule and the field; nothing is written', async () => {
    await settle();
    const rv = md().metadata.resourceVersion;
    const res = await h.s.request('POST', `${URL}?dryRun=true`, {
      resourceVersion: rv,
      maxSurge: 1,
    });
    expect(res.statusCode, res.body).toBe(422);
    const body = res.json<ErrorBody>();
    expect(body.details).toContainEqual(
      expect.objectContaining({ rule: 'R-MD-3', path: 'maxSurge', severity: 'error' }),
    );
    expect(md().metadata.resourceVersion).toBe(rv);
  });

  it('O-EDIT-STRATEGY with R-MD-2: a bare numeric string is a 400 naming the field; both 0 is a 422', async () => {
    await settle();
    const rv = md().metadata.resourceVersion;
    const shape = await h.s.request('POST', `${URL}?dryRun=true`, {
      resourceVersion: rv,
      maxUnavailable: '1',
    });
    expect(shape.statusCode, shape.body).toBe(400);
    const refused = shape.json<ErrorBody>();
    expect(refused.details[0]).toMatchObject({ path: 'maxUnavailable' });
    expect(refused.message).toContain('maxUnavailable "1" is a string but not a percentage');
    const zero = await h.s.request('POST', `${URL}?dryRun=true`, {
      resourceVersion: rv,
      maxUnavailable: 0,
    });
    expect(zero.statusCode, zero.body).toBe(422);
    expect(zero.json<ErrorBody>().details[0]).toMatchObject({
      rule: 'R-MD-2',
      path: 'maxUnavailable',
    });
  });

  it('O-EDIT-STRATEGY: someone else scaled meanwhile: the edit is rebased on their version and applied', async () => {
    await settle();
    const seen = md().metadata.resourceVersion;
    await someoneElsePatches({ spec: { replicas: 4 } });
    await settle();
    const res = await h.s.request('POST', URL, {
      resourceVersion: seen,
      nodeDeletionTimeout: '1m',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ rebased: { kind: string; name: string }[] }>().rebased).toMatchObject([
      { kind: 'MachineDeployment', name: 'demo-md-0' },
    ]);
    const after = md();
    expect(after.spec.replicas).toBe(4);
    expect(ns(after.spec.template.spec.nodeDeletionTimeout)).toBe(ns('1m'));
  });

  it('O-EDIT-STRATEGY: someone else changed the same field meanwhile: 409 with theirs and yours, and theirs is kept', async () => {
    await settle();
    const seen = md().metadata.resourceVersion;
    await someoneElsePatches({ spec: { template: { spec: { nodeDrainTimeout: '7m' } } } });
    await settle();
    const res = await h.s.request('POST', URL, { resourceVersion: seen, nodeDrainTimeout: '20m' });
    expect(res.statusCode, res.body).toBe(409);
    const body = res.json<ErrorBody>();
    expect(body.code).toBe('Conflict');
    expect(body.details[0]?.rule).toBe('R-PLAN-STALE');
    expect(body.conflict?.fields).toContain('/spec/template/spec/nodeDrainTimeout');
    expect(ns(body.conflict?.theirs.spec.template.spec.nodeDrainTimeout)).toBe(ns('7m'));
    expect(ns(body.conflict?.yours.spec.template.spec.nodeDrainTimeout)).toBe(ns('20m'));
    expect(ns(md().spec.template.spec.nodeDrainTimeout)).toBe(ns('7m'));
  });

  it('O-EDIT-STRATEGY is for worker pools: the control-plane pool is a 400, an unknown pool a 404', async () => {
    const rv = md().metadata.resourceVersion;
    const cp = await h.s.request('POST', `${BASE}/nodepools/control-plane/strategy?dryRun=true`, {
      resourceVersion: rv,
      nodeDrainTimeout: '1m',
    });
    expect(cp.statusCode, cp.body).toBe(400);
    expect(cp.json<ErrorBody>().details[0]).toMatchObject({ rule: 'R-MD-5', path: 'pool' });
    const missing = await h.s.request('POST', `${BASE}/nodepools/nope/strategy?dryRun=true`, {
      resourceVersion: rv,
      nodeDrainTimeout: '1m',
    });
    expect(missing.statusCode, missing.body).toBe(404);
  });
});
