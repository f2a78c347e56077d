import type { PlanStep } from '@dcs/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { TestSession } from './support/session';

/**
 * A controller's status writes are not someone else's edit. Every write of a plan is guarded by
 * the resourceVersion it was planned on (R-POOL-4), and every status write moves the
 * resourceVersion: a pool whose machines are provisioning has its MachineDeployment's status
 * rewritten again and again by Cluster API. Before, the guard failed again on each retry while
 * the status kept moving: Preview showed the server's "error in our request" and Apply ended in
 * "someone else is editing it" (found by bench `screen`'s scale-ups under load). Here a status
 * write lands just before every dry run and write of the MachineDeployment, the worst case: the
 * plan still goes through, while a spec change by someone else in the same place is still judged.
 */

const NS = 'cpaas-system';
const MD = 'demo-md-0';
const BASE = `/api/v1/clusters/${NS}/demo`;
const REF = {
  apiVersion: 'cluster.x-k8s.io/v1beta1',
  kind: 'MachineDeployment',
  name: MD,
  namespace: NS,
};

/** What lands on the MachineDeployment before each of the console's dry runs and writes of it. */
let before: (() => Promise<void>) | undefined;
let statusWrites = 0;

describe('a write guarded by its resourceVersion while a controller writes the status', () => {
  let t: TestCluster;
  let app: FastifyInstance;

  beforeAll(async () => {
    t = await startTestCluster({ workers: 3, entries: 8 });
    app = await buildTestApp(t, {
      env: { MUTATION_RATE_PER_MINUTE: '100000' },
      verifyScaleDownMs: 0,
      executor: {
        onWrite: async (step: PlanStep, phase) => {
          if (step.kind === 'MachineDeployment' && phase !== 'undo') await before?.();
        },
      },
    });
  });
  beforeEach(() => {
    before = undefined;
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  const statusWrite = async () => {
    statusWrites++;
    await t.cluster.server.client.patch(
      REF,
      'merge',
      { status: { observedGeneration: statusWrites } },
      { subresource: 'status' },
    );
  };
  const replicas = () =>
    (t.cluster.server.client.get(REF) as { spec: { replicas: number } } | undefined)?.spec.replicas;

  async function viewed(s: TestSession) {
    return (await s.request('GET', `${BASE}/nodepools/${MD}`)).json<{
      resourceVersions: { md: string };
      replicas: { desired: number };
    }>();
  }

  it('a scale previewed and applied while the status moves before each write: accepted, applied, no conflict', async () => {
    const s = new TestSession(app);
    await s.start();
    const view = await viewed(s);
    const to = view.replicas.desired + 1;
    before = statusWrite;
    const written = statusWrites;
    const body = { replicas: to, resourceVersion: view.resourceVersions.md };
    const preview = await s.request('POST', `${BASE}/nodepools/${MD}/scale?dryRun=true`, body);
    expect(preview.statusCode, preview.body.slice(0, 2000)).toBe(200);
    const verdict = preview.json<{ verdict?: { ok: boolean } }>().verdict;
    expect(verdict?.ok, JSON.stringify(verdict).slice(0, 2000)).toBe(true);
    const res = await s.request('POST', `${BASE}/nodepools/${MD}/scale`, body);
    expect(res.statusCode, res.body.slice(0, 2000)).toBe(200);
    expect(statusWrites - written).toBeGreaterThanOrEqual(3);
    expect(replicas()).toBe(to);
  }, 60_000);

  it('a spec change by someone else just before the write is still a conflict, not overwritten', async () => {
    const s = new TestSession(app);
    await s.start();
    const view = await viewed(s);
    const theirs = view.replicas.desired + 2;
    let once = false;
    before = async () => {
      if (once) return statusWrite();
      once = true;
      await t.cluster.server.client.patch(REF, 'merge', { spec: { replicas: theirs } });
    };
    const res = await s.request('POST', `${BASE}/nodepools/${MD}/scale`, {
      replicas: view.replicas.desired + 1,
      resourceVersion: view.resourceVersions.md,
    });
    expect(res.statusCode, res.body.slice(0, 2000)).toBe(409);
    expect(res.json<{ conflict?: { fields: string[] } }>().conflict?.fields).toContain(
      '/spec/replicas',
    );
    expect(replicas()).toBe(theirs);
  }, 60_000);

  it('a replica count written and written back just before the write is a conflict too, though the ends agree', async () => {
    const s = new TestSession(app);
    await s.start();
    const view = await viewed(s);
    const from = view.replicas.desired;
    let once = false;
    before = async () => {
      if (once) return statusWrite();
      once = true;
      await t.cluster.server.client.patch(REF, 'merge', { spec: { replicas: from - 2 } });
      await statusWrite();
      await t.cluster.server.client.patch(REF, 'merge', { spec: { replicas: from } });
    };
    const res = await s.request('POST', `${BASE}/nodepools/${MD}/scale`, {
      replicas: from - 1,
      resourceVersion: view.resourceVersions.md,
    });
    expect(res.statusCode, res.body.slice(0, 2000)).toBe(409);
    expect(replicas()).toBe(from);
  }, 60_000);
  it('Preview: a spec change by someone else just before its dry run is the conflict Apply would answer (409, their field), not the server’s generic refusal of a step', async () => {
    const s = new TestSession(app);
    await s.start();
    const view = await viewed(s);
    const theirs = view.replicas.desired - 2;
    let once = false;
    before = async () => {
      if (once) return;
      once = true;
      await t.cluster.server.client.patch(REF, 'merge', { spec: { replicas: theirs } });
    };
    const preview = await s.request('POST', `${BASE}/nodepools/${MD}/scale?dryRun=true`, {
      replicas: view.replicas.desired - 1,
      resourceVersion: view.resourceVersions.md,
    });
    expect(preview.statusCode, preview.body.slice(-1500)).toBe(409);
    const body = preview.json<{ code: string; conflict?: { fields: string[] } }>();
    expect(body.code).toBe('Conflict');
    expect(body.conflict?.fields).toContain('/spec/replicas');
    expect(replicas()).toBe(theirs);
  }, 60_000);
});
