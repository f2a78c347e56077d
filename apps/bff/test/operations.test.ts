import {
  defaultBootstrapSpec,
  type MachineTemplateSpecInput,
  type Plan,
  type PlanStep,
} from '@dcs/domain';
import { aMachineTemplate, anIpEntry } from '@dcs/domain/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { TestSession } from './support/session';
import { mismatches, reader, readWritten } from './support/written';

/**
 * Every O-* operation through the routes against the embedded cluster: the dry-run plan (every
 * step accepted by the server's dry run), then the real request, whose applied plan must equal
 * the previewed one; and what the cluster holds afterwards, read back with the real kubectl
 * (client-node where kubectl is missing), must equal the plan's diffs.
 */

const BASE = '/api/v1/clusters/cpaas-system/demo';
const NS = 'cpaas-system';

function templateSpec(vmTemplateName = 'alauda-os-k8s-v1.33.4', cpu = 4): MachineTemplateSpecInput {
  const full = aMachineTemplate().spec?.template.spec;
  if (!full) throw new Error('the builder has a spec');
  const { ipHostPoolRef: _p, providerID: _id, ...spec } = full;
  return {
    ...spec,
    vmTemplateName,
    vmConfig: { ...spec.vmConfig, dcsMachineCpuSpec: { quantity: cpu } },
  };
}

interface Applied {
  plan: Plan;
  execution: { ok: boolean; steps: { status: string }[] };
  rebased: { kind: string; name: string }[];
  verification?: { ok: boolean; settled: boolean; unexpected: string[] };
}

describe('operations against the embedded cluster', () => {
  let t: TestCluster;
  let app: FastifyInstance;
  let s: TestSession;
  const hooks: { onWrite?: (step: PlanStep, phase: string) => Promise<void> } = {};
  const server = () => t.cluster.server.client;
  const get = (apiVersion: string, kind: string, name: string) =>
    server().get({ apiVersion, kind, name, namespace: NS });
  const got = (apiVersion: string, kind: string, name: string): unknown =>
    get(apiVersion, kind, name);
  const rvOf = (apiVersion: string, kind: string, name: string) =>
    get(apiVersion, kind, name)?.metadata.resourceVersion ?? '';
  const mdRv = () => rvOf('cluster.x-k8s.io/v1beta1', 'MachineDeployment', 'demo-md-0');

  /** Someone else merge-patches demo-md-0 (straight to the API server, not through the BFF). */
  const someoneElsePatches = (patch: Record<string, unknown>) =>
    server().patch(
      {
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind: 'MachineDeployment',
        name: 'demo-md-0',
        namespace: NS,
      },
      'merge',
      patch,
    );

  /** Waits until the app's cache has caught up with the server (writes arrive by watch). */
  async function settle(): Promise<void> {
    const target = String(t.cluster.server.resourceVersion);
    for (let i = 0; i < 200; i++) {
      const all = app.cache.health();
      if (all.every((h) => h.hasSynced)) {
        const md = app.cache.stores.MachineDeployment.get(NS, 'demo-md-0');
        if (md === undefined || Number(md.metadata.resourceVersion) <= Number(target)) {
          await new Promise((r) => setTimeout(r, 30));
          return;
        }
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Plays the MachineDeployment controller: the status has seen the current generation. */
  async function steady(name: string): Promise<void> {
    const md = get('cluster.x-k8s.io/v1beta1', 'MachineDeployment', name);
    if (!md) return;
    await server().update(
      { ...md, status: { ...(md.status as object), observedGeneration: md.metadata.generation } },
      { subresource: 'status' },
    );
  }

  /** Dry run, then the real request: the applied plan is the previewed one. */
  async function dryThenApply(
    method: 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body: unknown,
    status = 200,
  ): Promise<Applied> {
    await settle();
    const dry = await s.request(method, `${url}?dryRun=true`, body);
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.headers['x-dry-run']).toBe('true');
    // Preview asked the server: every step was dry-run and accepted.
    const { verdict, ...plan } = dry.json<Plan>();
    expect(verdict?.ok, JSON.stringify(verdict)).toBe(true);
    expect(verdict?.steps.map((v) => v.index)).toEqual(plan.steps.map((_s, i) => i));
    expect(verdict?.steps.filter((v) => v.status !== 'accepted')).toEqual([]);
    const real = await s.request(method, url, body);
    expect(real.statusCode, real.body).toBe(status);
    const applied = real.json<Applied>();
    expect(applied.execution.ok).toBe(true);
    expect(applied.plan).toEqual(plan);
    expect(plan.kubectl).toHaveLength(plan.steps.length);
    // The plan equals what Apply wrote, as kubectl reads it back (written.ts).
    const read = await readWritten(t.kubeconfig, plan);
    expect(mismatches(plan, read, new Set(plan.effects.machinesDeleted)), reader).toEqual([]);
    return applied;
  }

  beforeAll(async () => {
    t = await startTestCluster({ entries: 8 });
    app = await buildTestApp(t, {
      executor: {
        pollMs: 20,
        onWrite: async (step, phase) => {
          await hooks.onWrite?.(step, phase);
        },
      },
    });
    s = new TestSession(app);
    await s.start();
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('O-SCALE-UP: raises replicas with the resourceVersion as precondition', async () => {
    const applied = await dryThenApply('POST', `${BASE}/nodepools/demo-md-0/scale`, {
      replicas: 4,
      resourceVersion: mdRv(),
    });
    expect(applied.plan.operation).toBe('O-SCALE-UP');
    const md = got('cluster.x-k8s.io/v1beta1', 'MachineDeployment', 'demo-md-0') as {
      spec: { replicas: number };
    };
    expect(md.spec.replicas).toBe(4);
  });

  it('O-SCALE-DOWN-RANDOM: lowers replicas', async () => {
    const applied = await dryThenApply('POST', `${BASE}/nodepools/demo-md-0/scale`, {
      replicas: 3,
      resourceVersion: mdRv(),
    });
    expect(applied.plan.operation).toBe('O-SCALE-DOWN-RANDOM');
  });

  it('Preview asks the server: a refusal it cannot foresee shows at its step, with its field, and Apply writes nothing', async () => {
    await someoneElsePatches({
      metadata: { annotations: { 'sim.dcs.io/refuse': 'frozen for maintenance' } },
    });
    await settle();
    const replicasBefore = (
      got('cluster.x-k8s.io/v1beta1', 'MachineDeployment', 'demo-md-0') as {
        spec: { replicas: number };
      }
    ).spec.replicas;
    const body = { replicas: replicasBefore + 1, resourceVersion: mdRv() };
    const dry = await s.request('POST', `${BASE}/nodepools/demo-md-0/scale?dryRun=true`, body);
    expect(dry.statusCode, dry.body).toBe(200);
    const { verdict } = dry.json<Plan>();
    expect(verdict?.ok).toBe(false);
    expect(verdict?.steps).toMatchObject([
      {
        index: 0,
        status: 'refused',
        sequence: 'in-order',
        error: { status: 422, reason: 'Invalid' },
        issues: [
          {
            rule: 'R-API',
            path: 'metadata.annotations.sim.dcs.io/refuse',
            message: expect.stringContaining('frozen for maintenance') as string,
          },
        ],
      },
    ]);
    const rvBefore = mdRv();
    const real = await s.request('POST', `${BASE}/nodepools/demo-md-0/scale`, body);
    expect(real.statusCode, real.body).toBe(422);
    expect(real.json<{ message: string }>().message).toContain('frozen for maintenance');
    expect(mdRv()).toBe(rvBefore);
    await server().patch(
      {
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind: 'MachineDeployment',
        name: 'demo-md-0',
        namespace: NS,
      },
      'json',
      [{ op: 'remove', path: '/metadata/annotations/sim.dcs.io~1refuse' }],
    );
  });

  it('rebases a stale request when someone else changed other fields, and applies it (R-POOL-4 spirit)', async () => {
    await settle();
    const seen = mdRv();
    // Someone else labels the MachineDeployment meanwhile.
    await someoneElsePatches({ metadata: { labels: { team: 'blue' } } });
    await settle();
    const res = await s.request('POST', `${BASE}/nodepools/demo-md-0/scale`, {
      replicas: 4,
      resourceVersion: seen,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Applied>().rebased).toMatchObject([
      { kind: 'MachineDeployment', name: 'demo-md-0' },
    ]);
  });

  it('answers 409 with base, theirs and yours when someone else changed the same field', async () => {
    await settle();
    const seen = mdRv();
    await someoneElsePatches({ spec: { replicas: 5 } });
    await settle();
    const res = await s.request('POST', `${BASE}/nodepools/demo-md-0/scale`, {
      replicas: 2,
      resourceVersion: seen,
    });
    expect(res.statusCode, res.body).toBe(409);
    const body = res.json<{
      code: string;
      details: { rule: string }[];
      conflict: {
        base: { spec: { replicas: number } };
        theirs: { spec: { replicas: number } };
        yours: { spec: { replicas: number } };
        fields: string[];
      };
    }>();
    expect(body.details[0]?.rule).toBe('R-PLAN-STALE');
    expect(body.conflict.base.spec.replicas).toBe(4);
    expect(body.conflict.theirs.spec.replicas).toBe(5);
    expect(body.conflict.yours.spec.replicas).toBe(2);
    expect(body.conflict.fields).toContain('/spec/replicas');
    const md = got('cluster.x-k8s.io/v1beta1', 'MachineDeployment', 'demo-md-0') as {
      spec: { replicas: number };
    };
    expect(md.spec.replicas).toBe(5);
    // Back to 3 for what follows.
    await dryThenApply('POST', `${BASE}/nodepools/demo-md-0/scale`, {
      replicas: 3,
      resourceVersion: mdRv(),
    });
  });

  /** Someone else patches demo-md-0 once, between our plan and the server's first look at it. */
  function raceOnce(patch: Record<string, unknown>): void {
    let done = false;
    hooks.onWrite = async (step) => {
      if (done || step.kind !== 'MachineDeployment') return;
      done = true;
      await someoneElsePatches(patch);
    };
  }

  it('a failed JSON-patch test op (422 from the server) is a conflict: re-read, re-planned, applied when the intent still applies', async () => {
    await settle();
    const seen = mdRv();
    raceOnce({ metadata: { labels: { team: 'green' } } });
    try {
      const res = await s.request('POST', `${BASE}/nodepools/demo-md-0/scale`, {
        replicas: 4,
        resourceVersion: seen,
      });
      expect(res.statusCode, res.body).toBe(200);
      const applied = res.json<Applied>();
      expect(applied.rebased).toMatchObject([{ kind: 'MachineDeployment', name: 'demo-md-0' }]);
      const md = got('cluster.x-k8s.io/v1beta1', 'MachineDeployment', 'demo-md-0') as {
        metadata: { labels: Record<string, string> };
        spec: { replicas: number };
      };
      expect(md.spec.replicas).toBe(4);
      expect(md.metadata.labels.team).toBe('green');
    } finally {
      hooks.onWrite = undefined;
    }
  });

  it('a failed JSON-patch test op on a field both changed answers 409 with base, theirs and yours', async () => {
    await settle();
    const seen = mdRv();
    raceOnce({ spec: { replicas: 6 } });
    try {
      const res = await s.request('POST', `${BASE}/nodepools/demo-md-0/scale`, {
        replicas: 2,
        resourceVersion: seen,
      });
      expect(res.statusCode, res.body).toBe(409);
      const body = res.json<{
        code: string;
        conflict: {
          base: { spec: { replicas: number } };
          theirs: { spec: { replicas: number } };
          yours: { spec: { replicas: number } };
          fields: string[];
        };
      }>();
      expect(body.code).toBe('Conflict');
      expect(body.conflict.base.spec.replicas).toBe(4);
      expect(body.conflict.theirs.spec.replicas).toBe(6);
      expect(body.conflict.yours.spec.replicas).toBe(2);
      expect(body.conflict.fields).toContain('/spec/replicas');
    } finally {
      hooks.onWrite = undefined;
    }
    await dryThenApply('POST', `${BASE}/nodepools/demo-md-0/scale`, {
      replicas: 3,
      resourceVersion: mdRv(),
    });
  });

  it('O-SCALE-DOWN-TARGETED: marks exactly the chosen machine, lowers replicas by one, and checks who goes', async () => {
    await settle();
    const machine = 'demo-md-0-abc12-m1';
    await steady('demo-md-0');
    await settle();
    const mrv = rvOf('cluster.x-k8s.io/v1beta1', 'Machine', machine);
    // Play Cluster API: once replicas drop, the marked machine is deleted.
    hooks.onWrite = async (step, phase) => {
      if (phase !== 'write' || step.kind !== 'MachineDeployment') return;
      setTimeout(() => {
        void server().delete({
          apiVersion: 'cluster.x-k8s.io/v1beta1',
          kind: 'Machine',
          name: machine,
          namespace: NS,
        });
      }, 50);
      await Promise.resolve();
    };
    const applied = await dryThenApply('POST', `${BASE}/nodepools/demo-md-0/scale`, {
      deleteMachines: [machine],
      resourceVersion: mdRv(),
      machineResourceVersions: { [machine]: mrv },
    });
    hooks.onWrite = undefined;
    expect(applied.plan.operation).toBe('O-SCALE-DOWN-TARGETED');
    expect(applied.plan.steps.map((st) => `${st.verb} ${st.kind}`)).toEqual([
      'patch Machine',
      'patch MachineDeployment',
    ]);
    expect(applied.verification).toMatchObject({ ok: true, settled: true, unexpected: [] });
    const md = got('cluster.x-k8s.io/v1beta1', 'MachineDeployment', 'demo-md-0') as {
      spec: { replicas: number };
    };
    expect(md.spec.replicas).toBe(2);
  });

  it('O-SCALE-DOWN-TARGETED refuses while another machine is deleting (R-MD-6)', async () => {
    await steady('demo-md-0');
    await settle();
    const other = 'demo-md-0-abc12-m2';
    await server().patch(
      { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'Machine', name: other, namespace: NS },
      'merge',
      {
        metadata: { finalizers: ['test.dcs/hold'] },
      },
    );
    await server().delete({
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Machine',
      name: other,
      namespace: NS,
    });
    await settle();
    const m0 = 'demo-md-0-abc12-m0';
    const res = await s.request('POST', `${BASE}/nodepools/demo-md-0/scale?dryRun=true`, {
      deleteMachines: [m0],
      resourceVersion: mdRv(),
      machineResourceVersions: { [m0]: rvOf('cluster.x-k8s.io/v1beta1', 'Machine', m0) },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(
      res.json<{ details: { rule: string }[] }>().details.some((d) => d.rule === 'R-MD-6'),
    ).toBe(true);
    await server().patch(
      { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'Machine', name: other, namespace: NS },
      'merge',
      {
        metadata: { finalizers: null },
      },
    );
  });

  it('O-CREATE-POOL: IP pool, machine template, bootstrap template, MachineDeployment in order', async () => {
    const body = {
      name: 'demo-md-1',
      replicas: 2,
      version: 'v1.33.4',
      machineTemplate: { mode: 'new', name: 'demo-md-1-template', spec: templateSpec() },
      bootstrap: {
        mode: 'new',
        name: 'demo-md-1-kct',
        spec: defaultBootstrapSpec({
          version: 'v1.33.4',
          sshAuthorizedKeys: ['ssh-ed25519 AAAA k'],
        }),
      },
      ipPool: { mode: 'new', name: 'demo-md-1-ippool', entries: [20, 21].map((n) => anIpEntry(n)) },
      strategy: { maxSurge: 0, maxUnavailable: 1 },
    };
    const applied = await dryThenApply('POST', `${BASE}/nodepools`, body, 201);
    expect(applied.plan.steps.map((st) => st.kind)).toEqual([
      'DCSIpHostnamePool',
      'DCSMachineTemplate',
      'KubeadmConfigTemplate',
      'MachineDeployment',
    ]);
    expect(get('cluster.x-k8s.io/v1beta1', 'MachineDeployment', 'demo-md-1')).toBeDefined();
    await settle();
    const pools = await s.request('GET', `${BASE}/nodepools`);
    expect(pools.json<{ id: string }[]>().map((p) => p.id)).toContain('demo-md-1');
  });

  it('O-CREATE-POOL leaves nothing behind when its last step fails', async () => {
    await settle();
    hooks.onWrite = async (step, phase) => {
      if (phase === 'write' && step.kind === 'MachineDeployment') {
        // Someone takes the name between our dry run and our write.
        await server().create({
          apiVersion: 'cluster.x-k8s.io/v1beta1',
          kind: 'MachineDeployment',
          metadata: { name: 'demo-md-2', namespace: NS },
          spec: {
            clusterName: 'other',
            selector: {},
            template: {
              spec: { clusterName: 'other', bootstrap: {}, infrastructureRef: { name: 'x' } },
            },
          },
        });
      }
    };
    const res = await s.request('POST', `${BASE}/nodepools`, {
      name: 'demo-md-2',
      replicas: 1,
      version: 'v1.33.4',
      machineTemplate: { mode: 'new', name: 'demo-md-2-template', spec: templateSpec() },
      bootstrap: { mode: 'existing', name: 'demo-md-0-kct' },
      ipPool: { mode: 'new', name: 'demo-md-2-ippool', entries: [anIpEntry(30)] },
      strategy: { maxSurge: 0, maxUnavailable: 1 },
    });
    hooks.onWrite = undefined;
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    const body = res.json<{ execution: { rolledBack: boolean; steps: { status: string }[] } }>();
    expect(body.execution.rolledBack).toBe(true);
    expect(body.execution.steps.map((x) => x.status)).toEqual(['undone', 'undone', 'failed']);
    expect(
      get('infrastructure.cluster.x-k8s.io/v1beta1', 'DCSIpHostnamePool', 'demo-md-2-ippool'),
    ).toBeUndefined();
    expect(
      get('infrastructure.cluster.x-k8s.io/v1beta1', 'DCSMachineTemplate', 'demo-md-2-template'),
    ).toBeUndefined();
  });

  it('O-UPGRADE-INFRA: a new machine template under a new name, the pool pointed at it', async () => {
    const applied = await dryThenApply('POST', `${BASE}/nodepools/demo-md-1/upgrade`, {
      operation: 'infrastructure',
      resourceVersion: rvOf('cluster.x-k8s.io/v1beta1', 'MachineDeployment', 'demo-md-1'),
      machineTemplate: {
        name: 'demo-md-1-template-r2',
        spec: templateSpec('alauda-os-k8s-v1.33.4', 8),
      },
    });
    expect(applied.plan.operation).toBe('O-UPGRADE-INFRA');
    const md = got('cluster.x-k8s.io/v1beta1', 'MachineDeployment', 'demo-md-1') as {
      spec: { template: { spec: { infrastructureRef: { name: string } } } };
    };
    expect(md.spec.template.spec.infrastructureRef.name).toBe('demo-md-1-template-r2');
  });

  it('O-UPDATE-BOOTSTRAP: a copy of the bootstrap template, switched to (R-BOOT-3)', async () => {
    const applied = await dryThenApply('POST', `${BASE}/nodepools/demo-md-1/upgrade`, {
      operation: 'bootstrap',
      resourceVersion: rvOf('cluster.x-k8s.io/v1beta1', 'MachineDeployment', 'demo-md-1'),
      bootstrap: {
        name: 'demo-md-1-kct-r2',
        spec: defaultBootstrapSpec({
          version: 'v1.33.4',
          sshAuthorizedKeys: ['ssh-ed25519 BBBB k'],
        }),
      },
    });
    expect(applied.plan.operation).toBe('O-UPDATE-BOOTSTRAP');
  });

  it('O-UPGRADE-CP: the control plane first, template and version in one change', async () => {
    const kcpName = 'demo-control-plane';
    const applied = await dryThenApply('POST', `${BASE}/nodepools/control-plane/upgrade`, {
      operation: 'control-plane',
      resourceVersion: rvOf(
        'controlplane.cluster.x-k8s.io/v1beta1',
        'KubeadmControlPlane',
        kcpName,
      ),
      version: 'v1.34.1',
      machineTemplate: {
        name: 'demo-control-plane-template-v1-34',
        spec: templateSpec('alauda-os-k8s-v1.34.1'),
      },
    });
    expect(applied.plan.operation).toBe('O-UPGRADE-CP');
    const kcp = got('controlplane.cluster.x-k8s.io/v1beta1', 'KubeadmControlPlane', kcpName) as {
      spec: { version: string };
    };
    expect(kcp.spec.version).toBe('v1.34.1');
  });

  it('O-UPGRADE-K8S: workers follow the control plane', async () => {
    // The simulated KCP would report its machines' version; here the status says it is done.
    const kcp = get(
      'controlplane.cluster.x-k8s.io/v1beta1',
      'KubeadmControlPlane',
      'demo-control-plane',
    );
    if (kcp)
      await server().update(
        { ...kcp, status: { ...(kcp.status as object), version: 'v1.34.1' } },
        { subresource: 'status' },
      );
    const applied = await dryThenApply('POST', `${BASE}/nodepools/demo-md-1/upgrade`, {
      operation: 'kubernetes',
      resourceVersion: rvOf('cluster.x-k8s.io/v1beta1', 'MachineDeployment', 'demo-md-1'),
      version: 'v1.34.1',
      machineTemplate: {
        name: 'demo-md-1-template-v1-34',
        spec: templateSpec('alauda-os-k8s-v1.34.1'),
      },
    });
    expect(applied.plan.operation).toBe('O-UPGRADE-K8S');
    const md = got('cluster.x-k8s.io/v1beta1', 'MachineDeployment', 'demo-md-1') as {
      spec: { template: { spec: { version: string } } };
    };
    expect(md.spec.template.spec.version).toBe('v1.34.1');
  });

  it('IP pools: create, then edit without losing an entry (R-POOL-4)', async () => {
    await dryThenApply(
      'POST',
      '/api/v1/namespaces/cpaas-system/ippools',
      { name: 'spare-pool', entries: [anIpEntry(40), anIpEntry(41)] },
      201,
    );
    await settle();
    const rv = rvOf('infrastructure.cluster.x-k8s.io/v1beta1', 'DCSIpHostnamePool', 'spare-pool');
    const applied = await dryThenApply(
      'PATCH',
      '/api/v1/namespaces/cpaas-system/ippools/spare-pool',
      {
        resourceVersion: rv,
        append: [anIpEntry(42)],
        remove: [anIpEntry(40).ip],
      },
    );
    expect(applied.plan.operation).toBe('O-EDIT-IP-POOL');
    const pool = got(
      'infrastructure.cluster.x-k8s.io/v1beta1',
      'DCSIpHostnamePool',
      'spare-pool',
    ) as { spec: { pool: { ip: string }[] } };
    expect(pool.spec.pool.map((e) => e.ip)).toEqual([anIpEntry(41).ip, anIpEntry(42).ip]);
  });

  it('R-POOL-4: an IP-pool edit merged over someone else’s change says what that change was, in the answer', async () => {
    await settle();
    const seen = rvOf('infrastructure.cluster.x-k8s.io/v1beta1', 'DCSIpHostnamePool', 'spare-pool');
    // Someone else appends an entry and renames another one's host meanwhile.
    await server().patch(
      {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'DCSIpHostnamePool',
        name: 'spare-pool',
        namespace: NS,
      },
      'json',
      [
        { op: 'add', path: '/spec/pool/-', value: anIpEntry(43) },
        { op: 'replace', path: '/spec/pool/0/hostname', value: 'renamed-by-someone' },
      ],
    );
    await settle();
    const res = await s.request('PATCH', '/api/v1/namespaces/cpaas-system/ippools/spare-pool', {
      resourceVersion: seen,
      append: [anIpEntry(44)],
      remove: [],
    });
    expect(res.statusCode, res.body).toBe(200);
    const applied = res.json<Applied & { rebased: { merged?: unknown }[] }>();
    const notice = applied.plan.issues.find((i) => i.messageKey === 'plan.issue.poolMerged');
    expect(notice).toMatchObject({
      rule: 'R-POOL-4',
      severity: 'warning',
      params: { name: 'spare-pool', seen, added: anIpEntry(43).ip, removed: '—' },
    });
    expect(notice?.params.changed).toBe(anIpEntry(41).ip);
    expect(applied.rebased).toContainEqual(
      expect.objectContaining({
        kind: 'DCSIpHostnamePool',
        name: 'spare-pool',
        from: seen,
        merged: {
          added: [anIpEntry(43).ip],
          removed: [],
          changed: [anIpEntry(41).ip],
          otherFields: false,
        },
      }),
    );
    const pool = got(
      'infrastructure.cluster.x-k8s.io/v1beta1',
      'DCSIpHostnamePool',
      'spare-pool',
    ) as { spec: { pool: { ip: string }[] } };
    expect(pool.spec.pool.map((e) => e.ip)).toEqual([41, 42, 43, 44].map((n) => anIpEntry(n).ip));
  });

  it('O-DELETE-POOL: deletes the MachineDeployment and what only it used, its earlier upgrades’ templates too (issue 25)', async () => {
    const applied = await dryThenApply('DELETE', `${BASE}/nodepools/demo-md-1`, {
      resourceVersion: rvOf('cluster.x-k8s.io/v1beta1', 'MachineDeployment', 'demo-md-1'),
      removeMachineTemplate: true,
      removeBootstrapTemplate: true,
    });
    expect(applied.plan.operation).toBe('O-DELETE-POOL');
    // The templates of the create and of each upgrade above, shown in the plan.
    expect(applied.plan.steps.map((x) => `${x.kind} ${x.name}`)).toEqual([
      'MachineDeployment demo-md-1',
      'DCSMachineTemplate demo-md-1-template-v1-34',
      'KubeadmConfigTemplate demo-md-1-kct-r2',
      'DCSMachineTemplate demo-md-1-template',
      'DCSMachineTemplate demo-md-1-template-r2',
      'KubeadmConfigTemplate demo-md-1-kct',
    ]);
    expect(get('cluster.x-k8s.io/v1beta1', 'MachineDeployment', 'demo-md-1')).toBeUndefined();
    const infra = 'infrastructure.cluster.x-k8s.io/v1beta1';
    for (const name of ['demo-md-1-template', 'demo-md-1-template-r2', 'demo-md-1-template-v1-34'])
      expect(get(infra, 'DCSMachineTemplate', name)).toBeUndefined();
    for (const name of ['demo-md-1-kct', 'demo-md-1-kct-r2'])
      expect(
        get('bootstrap.cluster.x-k8s.io/v1beta1', 'KubeadmConfigTemplate', name),
      ).toBeUndefined();
    // Another pool's templates stay.
    expect(get(infra, 'DCSMachineTemplate', 'demo-md-0-template')).toBeDefined();
  });

  it('names the field and rule of an invalid request (400 shape, 422 rules)', async () => {
    const shape = await s.request('POST', `${BASE}/nodepools/demo-md-0/scale?dryRun=true`, {
      replicas: -1,
      resourceVersion: '1',
    });
    expect(shape.statusCode).toBe(400);
    // The field's own rule (issue 12: requestFieldRule), not R-REQUEST.
    expect(shape.json()).toMatchObject({
      code: 'BadRequest',
      details: [{ rule: 'R-MD-1', path: 'replicas' }],
    });
    await settle();
    const rule = await s.request('POST', `${BASE}/nodepools/demo-md-0/scale?dryRun=true`, {
      replicas: 50,
      resourceVersion: mdRv(),
    });
    expect(rule.statusCode, rule.body).toBe(422);
    const issue = rule
      .json<{ details: { rule: string; path: string }[] }>()
      .details.find((d) => d.rule.startsWith('R-POOL') || d.rule.startsWith('R-MD'));
    expect(issue?.path).toBe('replicas');
  });
});
