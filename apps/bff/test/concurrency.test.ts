import {
  isRolloutInProgress,
  type DCSIpHostnamePool,
  type IpPoolEntry,
  type MachineTemplateSpecInput,
} from '@dcs/domain';
import { aMachineTemplate, anIpEntry } from '@dcs/domain/testing';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { TestSession } from './support/session';

/**
 * Concurrent editors through the BFF's HTTP routes against the embedded API server (issue 10):
 * N editors, each reading what the console shows and then writing, all at once, several rounds.
 * Every request must be either applied — and its effect is in the final object — or refused with
 * a 409 naming the conflict; nothing is lost and nothing is silently overwritten: the final object
 * equals a serial replay of the applied requests in the order the server applied them, and a
 * request that wrote a field someone else had written since the version it saw was a conflict.
 * The seed is fixed and printed (CONCURRENCY_SEED to replay another).
 */

const SEED = Number(process.env.CONCURRENCY_SEED ?? 20261201);
const EDITORS = 12;
const ROUNDS = 3;
const NS = 'cpaas-system';
const POOL = 'demo-worker-pool';
const MD = 'demo-md-0';
const BASE = `/api/v1/clusters/${NS}/demo`;

/** mulberry32: a small seeded PRNG, so a failing interleaving's choices reproduce. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rvNum = (rv: string | undefined): number => Number(rv ?? NaN);

interface Outcome<Op> {
  editor: number;
  op: Op;
  /** The resourceVersion the editor saw. */
  seen: string;
  status: number;
  /** The resourceVersion the target object got from this request's write (applied only). */
  wrote?: number;
  body: { code?: string; message?: string };
}

function templateSpec(cpu: number): MachineTemplateSpecInput {
  const full = aMachineTemplate().spec?.template.spec;
  if (!full) throw new Error('the builder has a spec');
  const { ipHostPoolRef: _p, providerID: _id, ...spec } = full;
  return { ...spec, vmConfig: { ...spec.vmConfig, dcsMachineCpuSpec: { quantity: cpu } } };
}

/** The seeded entries' persistent disk, with another size: what an entry edit changes. */
function diskOf(quantityGB: number) {
  const disk = anIpEntry(1).persistentDisk?.[0];
  if (!disk) throw new Error('the builder has a disk');
  return { ...disk, quantityGB };
}

/** The requests that wrote the target, in the order the server applied them. */
function appliedInOrder<Op>(outcomes: readonly Outcome<Op>[]): Outcome<Op>[] {
  return outcomes
    .filter((o) => o.status === 200 && o.wrote !== undefined)
    .sort((a, b) => (a.wrote ?? 0) - (b.wrote ?? 0));
}

/** A refusal must be a 409 that says what conflicted; anything else is a defect. */
function expectAppliedOrConflict(o: Outcome<unknown>, res: LightMyRequestResponse): void {
  if (o.status === 200) return;
  expect(o.status, `editor ${String(o.editor)} ${JSON.stringify(o.op)}: ${res.body}`).toBe(409);
  expect(o.body.code).toBe('Conflict');
  expect(o.body.message).toMatch(/changed|conflict/i);
}

/** The resourceVersion a step on `kind/name` wrote, from an applied answer. */
function wroteOf(res: LightMyRequestResponse, kind: string, name: string): number | undefined {
  const body = res.json<{
    execution?: { steps: { kind: string; name: string; resourceVersion?: string }[] };
  }>();
  const steps = body.execution?.steps.filter((s) => s.kind === kind && s.name === name) ?? [];
  const rv = steps[steps.length - 1]?.resourceVersion;
  return rv === undefined ? undefined : rvNum(rv);
}

/**
 * Progress without spurious refusals: every 409 was caused by a write someone else's request
 * applied after the version the refused editor saw (a field they both wrote, a version the BFF
 * no longer remembers, an object that kept changing). Unlike a minimum count of applied requests,
 * this holds however the editors interleave on a loaded machine.
 */
function expectRefusalsJustified(outcomes: readonly Outcome<unknown>[]): void {
  const applied = appliedInOrder(outcomes);
  for (const o of outcomes.filter((x) => x.status === 409)) {
    const cause = applied.find((p) => p.editor !== o.editor && (p.wrote ?? 0) > rvNum(o.seen));
    expect(
      cause,
      `editor ${String(o.editor)} ${JSON.stringify(o.op)}: ${String(o.body.message)}`,
    ).toBeDefined();
  }
}

describe('concurrent editors through the routes (issue 10)', () => {
  let t: TestCluster;
  let app: FastifyInstance;
  const server = () => t.cluster.server.client;

  beforeAll(async () => {
    console.log(
      `concurrency: seed ${String(SEED)}, ${String(EDITORS)} editors × ${String(ROUNDS)} rounds (CONCURRENCY_SEED to replay)`,
    );
    t = await startTestCluster({ workers: 6, entries: 14 });
    app = await buildTestApp(t, {
      env: { MUTATION_RATE_PER_MINUTE: '100000' },
      verifyScaleDownMs: 0,
    });
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  /** Every editor signed in with its own session, then all of them at once. */
  async function runEditors(editor: (id: number, s: TestSession) => Promise<void>): Promise<void> {
    const sessions = await Promise.all(
      Array.from({ length: EDITORS }, async () => {
        const s = new TestSession(app);
        await s.start();
        return s;
      }),
    );
    await Promise.all(sessions.map((s, i) => editor(i, s)));
  }

  /** Waits until the app's cache holds what the server holds now of one object. */
  async function cacheCaughtUp(kind: 'MachineDeployment' | 'DCSIpHostnamePool', name: string) {
    const apiVersion =
      kind === 'MachineDeployment'
        ? 'cluster.x-k8s.io/v1beta1'
        : 'infrastructure.cluster.x-k8s.io/v1beta1';
    const rv = server().get({ apiVersion, kind, name, namespace: NS })?.metadata.resourceVersion;
    const deadline = Date.now() + 30_000;
    while (app.cache.stores[kind].get(NS, name)?.metadata.resourceVersion !== rv) {
      if (Date.now() > deadline)
        throw new Error(`the cache did not reach ${kind} ${name} ${String(rv)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** One request that must be applied; the cache then holds its result. */
  async function applied(
    s: TestSession,
    method: 'POST' | 'PATCH',
    url: string,
    body: unknown,
    kind: 'MachineDeployment' | 'DCSIpHostnamePool',
    name: string,
  ): Promise<void> {
    const res = await s.request(method, url, body);
    expect(res.statusCode, res.body).toBe(200);
    await cacheCaughtUp(kind, name);
  }

  // Deterministic cases of what the concurrent ones below found under load: writes by others that
  // cancel out between the version a user saw and their request (A → B → A, "ABA").
  it('R-PLAN-STALE: a scale planned before two replica writes that cancel out is a 409, not a silent overwrite', async () => {
    const [me, other] = [new TestSession(app), new TestSession(app)];
    await me.start();
    await other.start();
    await cacheCaughtUp('MachineDeployment', MD);
    const mine = (await me.request('GET', `${BASE}/nodepools/${MD}`)).json<{
      resourceVersions: { md: string };
      replicas: { desired: number };
    }>();
    const from = mine.replicas.desired;
    const scaleTo = async (replicas: number) => {
      const view = (await other.request('GET', `${BASE}/nodepools/${MD}`)).json<{
        resourceVersions: { md: string };
      }>();
      await applied(
        other,
        'POST',
        `${BASE}/nodepools/${MD}/scale`,
        { replicas, resourceVersion: view.resourceVersions.md },
        'MachineDeployment',
        MD,
      );
    };
    // Someone scales up, someone else scales back down: the count is what I saw, but not by my say.
    await scaleTo(from + 2);
    await scaleTo(from);
    const res = await me.request('POST', `${BASE}/nodepools/${MD}/scale`, {
      replicas: from + 1,
      resourceVersion: mine.resourceVersions.md,
    });
    expect(res.statusCode, res.body.slice(0, 2000)).toBe(409);
    expect(res.json<{ conflict: { fields: string[] } }>().conflict.fields).toContain(
      '/spec/replicas',
    );
    const md = server().get({
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineDeployment',
      name: MD,
      namespace: NS,
    }) as { spec: { replicas: number } } | undefined;
    expect(md?.spec.replicas).toBe(from);
  }, 60_000);

  it('R-POOL-4: an entry edit planned before that entry was edited and edited back is a 409, not a silent overwrite', async () => {
    const [me, other] = [new TestSession(app), new TestSession(app)];
    await me.start();
    await other.start();
    const url = `/api/v1/namespaces/${NS}/ippools/${POOL}`;
    await cacheCaughtUp('DCSIpHostnamePool', POOL);
    const mine = (await me.request('GET', url)).json<{
      resourceVersion: string;
      entries: { ip: string; persistentDisk?: { quantityGB: number }[] }[];
    }>();
    // Entries 1–6 are claimed by the seeded machines; the 7th may be edited.
    const entry = mine.entries[6];
    if (!entry) throw new Error('the seed has at least 7 entries');
    const size = entry.persistentDisk?.[0]?.quantityGB ?? 40;
    const edit = async (quantityGB: number) => {
      const view = (await other.request('GET', url)).json<{ resourceVersion: string }>();
      await applied(
        other,
        'PATCH',
        url,
        {
          resourceVersion: view.resourceVersion,
          update: [{ ip: entry.ip, persistentDisk: [diskOf(quantityGB)] }],
        },
        'DCSIpHostnamePool',
        POOL,
      );
    };
    await edit(size + 30);
    await edit(size);
    const res = await me.request('PATCH', url, {
      resourceVersion: mine.resourceVersion,
      update: [{ ip: entry.ip, persistentDisk: [diskOf(size + 60)] }],
    });
    expect(res.statusCode, res.body.slice(0, 2000)).toBe(409);
    expect(res.json<{ message: string }>().message).toContain(entry.ip);
  }, 60_000);

  it('R-POOL-4: an entry edit planned on a version the BFF no longer remembers is a 409, not a silent overwrite', async () => {
    const [me, other] = [new TestSession(app), new TestSession(app)];
    await me.start();
    await other.start();
    const url = `/api/v1/namespaces/${NS}/ippools/${POOL}`;
    await cacheCaughtUp('DCSIpHostnamePool', POOL);
    const mine = (await me.request('GET', url)).json<{
      resourceVersion: string;
      entries: { ip: string }[];
    }>();
    const entry = mine.entries[7];
    if (!entry) throw new Error('the seed has at least 8 entries');
    const write = async (body: Record<string, unknown>) => {
      const view = (await other.request('GET', url)).json<{ resourceVersion: string }>();
      await applied(
        other,
        'PATCH',
        url,
        { resourceVersion: view.resourceVersion, ...body },
        'DCSIpHostnamePool',
        POOL,
      );
    };
    // Someone edits the entry, then enough other writes follow that my version is forgotten.
    await write({ update: [{ ip: entry.ip, persistentDisk: [diskOf(99)] }] });
    for (let k = 0; k < 9; k++) await write({ append: [anIpEntry(200 + k)] });
    const res = await me.request('PATCH', url, {
      resourceVersion: mine.resourceVersion,
      update: [{ ip: entry.ip, persistentDisk: [diskOf(11)] }],
    });
    expect(res.statusCode, res.body.slice(0, 2000)).toBe(409);
    expect(res.json<{ message: string }>().message).toContain(entry.ip);
  }, 60_000);

  type PoolOp =
    | { type: 'append'; entry: IpPoolEntry }
    | { type: 'remove'; ip: string }
    | { type: 'update'; ip: string; quantityGB: number };

  it('R-POOL-4: IP-pool appends, edits and removals: 0 lost entries, 0 silent overwrites', async () => {
    const poolNow = () =>
      server().get({
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'DCSIpHostnamePool',
        name: POOL,
        namespace: NS,
      }) as DCSIpHostnamePool | undefined;
    const initial = poolNow()?.spec?.pool ?? [];
    // Entries 1–6 are claimed by the six machines (seed.ts); the rest may be edited or removed.
    const editable = initial.map((e) => e.ip).slice(6);
    const outcomes: Outcome<PoolOp>[] = [];

    const editor = async (id: number, session: TestSession) => {
      // One generator per editor: its choices do not depend on how the editors interleave.
      const random = prng(SEED * 64 + id);
      for (let round = 0; round < ROUNDS; round++) {
        const view = await session.request('GET', `/api/v1/namespaces/${NS}/ippools/${POOL}`);
        expect(view.statusCode, view.body).toBe(200);
        const seen = view.json<{ resourceVersion: string; entries: { ip: string }[] }>();
        const present = editable.filter((ip) => seen.entries.some((e) => e.ip === ip));
        const dice = random();
        const pick = present[Math.floor(random() * present.length)];
        const op: PoolOp =
          dice < 0.5 || pick === undefined
            ? { type: 'append', entry: anIpEntry(100 + id * ROUNDS + round) }
            : dice < 0.75
              ? { type: 'remove', ip: pick }
              : { type: 'update', ip: pick, quantityGB: 50 + id * 10 + round };
        const body = {
          resourceVersion: seen.resourceVersion,
          append: op.type === 'append' ? [op.entry] : [],
          remove: op.type === 'remove' ? [op.ip] : [],
          update:
            op.type === 'update'
              ? [
                  {
                    ip: op.ip,
                    persistentDisk: [diskOf(op.quantityGB)],
                  },
                ]
              : [],
        };
        const res = await session.request(
          'PATCH',
          `/api/v1/namespaces/${NS}/ippools/${POOL}`,
          body,
        );
        const o: Outcome<PoolOp> = {
          editor: id,
          op,
          seen: seen.resourceVersion,
          status: res.statusCode,
          body: res.json(),
        };
        if (res.statusCode === 200) {
          const wrote = wroteOf(res, 'DCSIpHostnamePool', POOL);
          if (wrote !== undefined) o.wrote = wrote;
        }
        outcomes.push(o);
        expectAppliedOrConflict(o, res);
      }
    };

    await runEditors(editor);
    const applied = appliedInOrder(outcomes);
    // Serial replay of the applied requests, in the order the server applied them.
    let replay: IpPoolEntry[] = structuredClone(initial);
    for (const o of applied) {
      const op = o.op;
      if (op.type === 'append') replay.push(op.entry);
      else if (op.type === 'remove') replay = replay.filter((e) => e.ip !== op.ip);
      else {
        const disk = diskOf(op.quantityGB);
        replay = replay.map((e) => (e.ip === op.ip ? { ...e, persistentDisk: [disk] } : e));
      }
    }
    const final = poolNow()?.spec?.pool ?? [];
    expect(final).toEqual(replay);
    // No silent overwrite: a request that touched an entry some applied request had touched
    // after the version it saw would have overwritten that change unseen.
    for (const o of applied) {
      if (o.op.type === 'append') continue;
      const ip = o.op.ip;
      const unseen = applied.filter(
        (p) =>
          p !== o &&
          p.op.type !== 'append' &&
          p.op.ip === ip &&
          (p.wrote ?? 0) > rvNum(o.seen) &&
          (p.wrote ?? 0) < (o.wrote ?? 0),
      );
      expect(unseen, `editor ${String(o.editor)} ${JSON.stringify(o.op)}`).toEqual([]);
    }
    const conflicts = outcomes.filter((o) => o.status === 409).length;
    console.log(
      `concurrency: IP pool: ${String(outcomes.length)} requests, ${String(applied.length)} applied, ${String(conflicts)} refused 409, ${String(final.length)} entries`,
    );
    expectRefusalsJustified(outcomes);
    expect(applied.length).toBeGreaterThan(0);
  }, 120_000);

  type MdOp =
    | { type: 'scale'; replicas: number }
    | { type: 'template'; name: string; cpu: number }
    | { type: 'delete'; machine: string };

  it('O-SCALE-UP, O-SCALE-DOWN-TARGETED, O-UPGRADE-INFRA on one MachineDeployment: 0 silent overwrites', async () => {
    const mdNow = () =>
      server().get({
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind: 'MachineDeployment',
        name: MD,
        namespace: NS,
      }) as
        | {
            spec: {
              replicas: number;
              template: { spec: { infrastructureRef: { name: string } } };
            };
          }
        | undefined;
    // The embedded cluster runs no MachineDeployment controller: play it once, so that the pool
    // starts steady (its status has seen its generation) whatever the cases above wrote.
    const before = mdNow() as unknown as
      { metadata: { generation?: number }; status?: Record<string, unknown> } | undefined;
    if (!before) throw new Error('the seed has demo-md-0');
    await server().update(
      {
        ...(before as unknown as Parameters<ReturnType<typeof server>['update']>[0]),
        status: { ...before.status, observedGeneration: before.metadata.generation },
      },
      { subresource: 'status' },
    );
    await cacheCaughtUp('MachineDeployment', MD);
    const initial = mdNow();
    if (!initial) throw new Error('the seed has demo-md-0');
    const outcomes: Outcome<MdOp>[] = [];

    const editor = async (id: number, session: TestSession) => {
      const random = prng(SEED * 64 + 32 + id);
      for (let round = 0; round < ROUNDS; round++) {
        const pool = await session.request('GET', `${BASE}/nodepools/${MD}`);
        expect(pool.statusCode, pool.body).toBe(200);
        const view = pool.json<{
          resourceVersions: { md: string };
          replicas: { desired: number; current: number };
          rollout: { inProgress: boolean };
        }>();
        const seen = view.resourceVersions.md;
        const machines = (await session.request('GET', `${BASE}/nodepools/${MD}/machines`)).json<
          { name: string; resourceVersion: string; deleting: boolean }[]
        >();
        const dice = random();
        const candidates = machines.filter((m) => !m.deleting);
        // As the UI does (R-MD-6): a targeted deletion is offered on a steady pool only — with the
        // planner's own test of a rollout (its status behind its generation: no controller here
        // catches up), on the version this editor saw.
        const cached = app.cache.stores.MachineDeployment.get(NS, MD);
        const steady =
          cached?.metadata.resourceVersion === seen &&
          !isRolloutInProgress(cached) &&
          !view.rollout.inProgress &&
          view.replicas.desired === view.replicas.current;
        const victim = steady ? candidates[Math.floor(random() * candidates.length)] : undefined;
        const op: MdOp =
          dice < 0.4 || victim === undefined
            ? { type: 'scale', replicas: 1 + Math.floor(random() * 6) }
            : dice < 0.7
              ? { type: 'template', name: `${MD}-t-e${String(id)}r${String(round)}`, cpu: id + 2 }
              : { type: 'delete', machine: victim.name };
        let res: LightMyRequestResponse;
        if (op.type === 'scale') {
          res = await session.request('POST', `${BASE}/nodepools/${MD}/scale`, {
            replicas: op.replicas,
            resourceVersion: seen,
          });
        } else if (op.type === 'delete') {
          res = await session.request('POST', `${BASE}/nodepools/${MD}/scale`, {
            deleteMachines: [op.machine],
            resourceVersion: seen,
            machineResourceVersions: {
              [op.machine]: victim?.resourceVersion ?? '',
            },
          });
        } else {
          res = await session.request('POST', `${BASE}/nodepools/${MD}/upgrade`, {
            operation: 'infrastructure',
            resourceVersion: seen,
            machineTemplate: { name: op.name, spec: templateSpec(op.cpu) },
          });
        }
        const o: Outcome<MdOp> = {
          editor: id,
          op,
          seen,
          status: res.statusCode,
          body: res.json(),
        };
        if (res.statusCode === 200) {
          const wrote = wroteOf(res, 'MachineDeployment', MD);
          if (wrote !== undefined) o.wrote = wrote;
        }
        outcomes.push(o);
        expectAppliedOrConflict(o, res);
      }
    };

    await runEditors(editor);
    const applied = appliedInOrder(outcomes);
    let replicas = initial.spec.replicas;
    let template = initial.spec.template.spec.infrastructureRef.name;
    for (const o of applied) {
      if (o.op.type === 'scale') replicas = o.op.replicas;
      else if (o.op.type === 'delete') replicas -= 1;
      else template = o.op.name;
    }
    const final = mdNow();
    expect(final?.spec.replicas).toBe(replicas);
    expect(final?.spec.template.spec.infrastructureRef.name).toBe(template);
    // Each applied write of a field (replicas; the template) was planned on a version that held
    // every earlier applied write of that field: none was overwritten unseen.
    const field = (op: MdOp) => (op.type === 'template' ? 'template' : 'replicas');
    for (const o of applied) {
      const unseen = applied.filter(
        (p) =>
          p !== o &&
          field(p.op) === field(o.op) &&
          (p.wrote ?? 0) > rvNum(o.seen) &&
          (p.wrote ?? 0) < (o.wrote ?? 0),
      );
      expect(unseen, `editor ${String(o.editor)} ${JSON.stringify(o.op)}`).toEqual([]);
    }
    // Targeted deletions that were applied marked their machine (R-MD-6).
    for (const o of applied) {
      if (o.op.type !== 'delete') continue;
      const m = server().get({
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind: 'Machine',
        name: o.op.machine,
        namespace: NS,
      });
      expect(m?.metadata.annotations?.['cluster.x-k8s.io/delete-machine']).toBeDefined();
    }
    const conflicts = outcomes.filter((o) => o.status === 409).length;
    const unchanged = outcomes.filter((o) => o.status === 200 && o.wrote === undefined);
    // A 200 that wrote nothing to the pool asked for what it already was (the same count).
    for (const o of unchanged) expect(o.op.type, JSON.stringify(o)).toBe('scale');
    console.log(
      `concurrency: MachineDeployment: ${String(outcomes.length)} requests, ${String(applied.length)} applied, ${String(unchanged.length)} already so, ${String(conflicts)} refused 409`,
    );
    expectRefusalsJustified(outcomes);
    expect(applied.length).toBeGreaterThan(0);
  }, 120_000);
});
