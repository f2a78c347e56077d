import type { Plan, PoolHealthCheckView } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { untilCached, useTestApp } from './support/harness';
import { TestSession } from './support/session';

/**
 * O-MHC-CREATE / O-MHC-EDIT / O-MHC-DELETE through `POST …/nodepools/{pool}/healthcheck` and the
 * pool's health check through `GET …/healthcheck`, against the embedded cluster: Preview is the
 * plan the server accepted in its dry run, Apply writes it (read back as kubectl would), an edit
 * over someone else's change is a 409, bad input a 400 naming the field and the rule, a viewer
 * is refused, v1beta2 alike, and the audit timeline records it.
 */

const NS = 'cpaas-system';
const BASE = `/api/v1/clusters/${NS}/demo`;
const URL = `${BASE}/nodepools/demo-md-0/healthcheck`;
const MHC = { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'MachineHealthCheck' } as const;

interface Shape {
  metadata: { resourceVersion: string };
  spec: Record<string, unknown>;
}
interface ErrorBody {
  code: string;
  details: { rule: string; path: string; severity: string; message: string }[];
}
const create = {
  operation: 'create',
  unhealthyNodeConditions: [
    { type: 'Ready', status: 'False', timeoutSeconds: 300 },
    { type: 'Ready', status: 'Unknown', timeoutSeconds: 300 },
  ],
  maxUnhealthy: '40%',
};

describe('O-MHC-* routes', () => {
  const h = useTestApp({ app: { executor: { pollMs: 20 } } });
  const mhc = () =>
    h.server().get({ ...MHC, name: 'demo-md-0-mhc', namespace: NS }) as unknown as
      Shape | undefined;
  const settle = async () => {
    const m = mhc();
    if (m)
      await untilCached(
        h.app,
        'MachineHealthCheck',
        NS,
        'demo-md-0-mhc',
        m.metadata.resourceVersion,
      );
  };
  const view = async () => {
    const res = await h.s.request('GET', URL);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ healthCheck: PoolHealthCheckView | null }>().healthCheck;
  };

  it('create: Preview is the accepted dry run, Apply writes it; the view reads it; edit with a 409 on a stale version; delete; all on the timeline', async () => {
    expect(await view()).toBeNull();
    const dry = await h.s.request('POST', `${URL}?dryRun=true`, create);
    expect(dry.statusCode, dry.body).toBe(200);
    const { verdict, ...plan } = dry.json<Plan>();
    expect(plan.operation).toBe('O-MHC-CREATE');
    expect(verdict?.steps.map((v) => v.status)).toEqual(['accepted']);
    expect(mhc()).toBeUndefined();

    const real = await h.s.request('POST', URL, create);
    expect(real.statusCode, real.body).toBe(200);
    expect(mhc()?.spec).toMatchObject({
      clusterName: 'demo',
      selector: {
        matchLabels: {
          'cluster.x-k8s.io/cluster-name': 'demo',
          'cluster.x-k8s.io/deployment-name': 'demo-md-0',
        },
      },
      unhealthyConditions: [
        { type: 'Ready', status: 'False', timeout: '5m0s' },
        { type: 'Ready', status: 'Unknown', timeout: '5m0s' },
      ],
      maxUnhealthy: '40%',
      nodeStartupTimeout: '10m0s',
    });
    await settle();
    const v = await view();
    expect(v).toMatchObject({
      name: 'demo-md-0-mhc',
      limit: { kind: 'maxUnhealthy', maxUnhealthy: '40%' },
      nodeStartupTimeoutSeconds: 600,
    });

    // A second one over the same machines: R-MHC-5.
    const again = await h.s.request('POST', `${URL}?dryRun=true`, create);
    expect(again.statusCode, again.body).toBe(422);
    expect(again.json<ErrorBody>().details[0]).toMatchObject({ rule: 'R-MHC-5', path: 'pool' });

    const seen = mhc()?.metadata.resourceVersion ?? '';
    const edit = await h.s.request('POST', URL, {
      operation: 'edit',
      resourceVersion: seen,
      unhealthyNodeConditions: [{ type: 'Ready', status: 'Unknown', timeoutSeconds: 600 }],
      unhealthyRange: '[1-2]',
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(mhc()?.spec).toMatchObject({
      unhealthyConditions: [{ type: 'Ready', status: 'Unknown', timeout: '10m0s' }],
      unhealthyRange: '[1-2]',
    });
    expect(mhc()?.spec).not.toHaveProperty('maxUnhealthy');

    // Someone else changed it meanwhile: the stale edit is a 409, nothing written.
    await settle();
    const saw = mhc()?.metadata.resourceVersion ?? '';
    await h.server().patch({ ...MHC, name: 'demo-md-0-mhc', namespace: NS }, 'merge', {
      spec: { unhealthyRange: '[1-3]' },
    });
    await settle();
    const stale = await h.s.request('POST', URL, {
      operation: 'edit',
      resourceVersion: saw,
      unhealthyNodeConditions: [{ type: 'Ready', status: 'Unknown', timeoutSeconds: 600 }],
      unhealthyRange: '[2-2]',
    });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(mhc()?.spec.unhealthyRange).toBe('[1-3]');

    await settle();
    const del = await h.s.request('POST', URL, {
      operation: 'delete',
      resourceVersion: mhc()?.metadata.resourceVersion ?? '',
    });
    expect(del.statusCode, del.body).toBe(200);
    expect(mhc()).toBeUndefined();

    const timeline = await h.s.request('GET', `${BASE}/timeline`);
    const text = JSON.stringify(timeline.json());
    for (const op of ['O-MHC-CREATE', 'O-MHC-EDIT', 'O-MHC-DELETE']) expect(text).toContain(op);
  });

  it('bad input: a 400 naming the field and the rule; the control plane a 400', async () => {
    const cases: [unknown, string, string][] = [
      [{ ...create, maxUnhealthy: '40' }, 'R-MHC-4', 'maxUnhealthy'],
      [{ ...create, maxUnhealthy: undefined, unhealthyRange: '1-2' }, 'R-MHC-4', 'unhealthyRange'],
      [
        {
          ...create,
          unhealthyNodeConditions: [{ type: 'Ready', status: 'No', timeoutSeconds: 1 }],
        },
        'R-MHC-2',
        'unhealthyNodeConditions.0.status',
      ],
      [{ ...create, nodeStartupTimeoutSeconds: -1 }, 'R-MHC-3', 'nodeStartupTimeoutSeconds'],
    ];
    for (const [body, rule, path] of cases) {
      const res = await h.s.request('POST', `${URL}?dryRun=true`, body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
      expect(res.json<ErrorBody>().details[0]).toMatchObject({ rule, path });
    }
    const short = await h.s.request('POST', `${URL}?dryRun=true`, {
      ...create,
      nodeStartupTimeoutSeconds: 10,
    });
    expect(short.statusCode, short.body).toBe(422);
    expect(short.json<ErrorBody>().details[0]).toMatchObject({ rule: 'R-MHC-3' });
    const cp = await h.s.request(
      'POST',
      `${BASE}/nodepools/control-plane/healthcheck?dryRun=true`,
      create,
    );
    expect(cp.statusCode, cp.body).toBe(400);
  });
});

describe('O-MHC-* for a viewer (token mode)', () => {
  const h = useTestApp({ app: { mode: 'token' } });

  it('is refused with 403 before any plan, dry run included; reads the view; the context says which review refused it', async () => {
    const s = new TestSession(h.app);
    await s.signIn(h.t.cluster.viewerToken);
    for (const q of ['', '?dryRun=true']) {
      const res = await s.request('POST', `${URL}${q}`, create);
      expect(res.statusCode, res.body).toBe(403);
    }
    const read = await s.request('GET', URL);
    expect(read.statusCode, read.body).toBe(200);
    const ctx = await s.request('GET', `${BASE}/context`);
    const { permissions } = ctx.json<{
      permissions: Record<
        string,
        { allowed: boolean; denied?: { verb: string; resource: string }[] }
      >;
    }>();
    expect(permissions.healthCheckPool?.allowed).toBe(false);
    expect(permissions.healthCheckPool?.denied?.[0]).toMatchObject({
      resource: 'machinehealthchecks',
    });
  });
});

describe('O-MHC-CREATE on Cluster API v1.14 (v1beta2 stored)', () => {
  const h = useTestApp({ cluster: { capiRelease: 'v1.14' }, app: { executor: { pollMs: 20 } } });
  const V2 = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineHealthCheck' } as const;

  it('is written through v1beta2 (spec.checks, remediation.triggerIf), previewed in it', async () => {
    const dry = await h.s.request('POST', `${URL}?dryRun=true`, create);
    expect(dry.statusCode, dry.body).toBe(200);
    const plan = dry.json<Plan>();
    expect(plan.verdict?.ok, JSON.stringify(plan.verdict)).toBe(true);
    expect(plan.kubectl.join('\n')).toContain('"apiVersion": "cluster.x-k8s.io/v1beta2"');
    const real = await h.s.request('POST', URL, create);
    expect(real.statusCode, real.body).toBe(200);
    const stored = h
      .server()
      .get({ ...V2, name: 'demo-md-0-mhc', namespace: NS }) as unknown as Shape;
    expect(stored.spec).toMatchObject({
      checks: {
        unhealthyNodeConditions: [
          { type: 'Ready', status: 'False', timeoutSeconds: 300 },
          { type: 'Ready', status: 'Unknown', timeoutSeconds: 300 },
        ],
        nodeStartupTimeoutSeconds: 600,
      },
      remediation: { triggerIf: { unhealthyLessThanOrEqualTo: '40%' } },
    });
  });

  it('O-DELETE-POOL takes the pool’s health check with it: previewed as its step, gone after Apply', async () => {
    const stored = h.server().get({ ...V2, name: 'demo-md-0-mhc', namespace: NS }) as unknown as
      Shape | undefined;
    expect(stored, 'the check the test before made').toBeDefined();
    await untilCached(
      h.app,
      'MachineHealthCheck',
      NS,
      'demo-md-0-mhc',
      stored?.metadata.resourceVersion ?? '',
    );
    const pool = (await h.s.request('GET', `${BASE}/nodepools/demo-md-0`)).json<{
      resourceVersions: { md: string };
    }>();
    const body = { resourceVersion: pool.resourceVersions.md };
    const dry = await h.s.request('DELETE', `${BASE}/nodepools/demo-md-0?dryRun=true`, body);
    expect(dry.statusCode, dry.body).toBe(200);
    const plan = dry.json<Plan>();
    expect(plan.steps.map((s) => `${s.kind} ${s.name}`)).toContain(
      'MachineHealthCheck demo-md-0-mhc',
    );
    expect(plan.verdict?.ok, JSON.stringify(plan.verdict)).toBe(true);
    const real = await h.s.request('DELETE', `${BASE}/nodepools/demo-md-0`, body);
    expect(real.statusCode, real.body).toBe(200);
    expect(h.server().get({ ...V2, name: 'demo-md-0-mhc', namespace: NS })).toBeUndefined();
  });
});
