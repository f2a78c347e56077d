import {
  AUDIT_DATA_KEY,
  AUDIT_LABEL,
  AUDIT_RECORD_ANNOTATION,
  AUDIT_REPORTING_CONTROLLER,
  parseAuditRecords,
} from '@dcs/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditRecorder } from '../src/audit/recorder';
import { KubeApiError } from '../src/kube/errors';
import { createMetrics } from '../src/metrics/metrics';
import type { TimelineView } from '../src/views/timeline';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { TestSession } from './support/session';

/**
 * Issue 12, the audit timeline, against the embedded cluster: two BFF replicas (token mode) on
 * one API server; an operator previews and applies on one, a viewer reads the other's timeline;
 * the records' ConfigMap and Events as kubectl would see them; the bounds; concurrent writers;
 * and a BFF whose own identity may not write records, whose operations still succeed.
 */

const NS = 'cpaas-system';
const BASE = `/api/v1/clusters/${NS}/demo`;
const POOL = `${BASE}/nodepools/demo-md-0`;
const CM = { apiVersion: 'v1', kind: 'ConfigMap', namespace: NS } as const;
const MD = { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'MachineDeployment' } as const;

interface Listed {
  items: Record<string, unknown>[];
}

describe('audit timeline (issue 12)', () => {
  let t: TestCluster;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let operator: TestSession;
  let viewer: TestSession;
  /** A quota the server's dry run enforces on MachineDeployments (the embedded server has none). */
  let quota = false;
  const server = () => t.cluster.server.client;
  const mdRv = () =>
    (
      server().get({ ...MD, name: 'demo-md-0', namespace: NS }) as {
        metadata: { resourceVersion: string };
      }
    ).metadata.resourceVersion;
  const records = () => {
    const cm = server().get({ ...CM, name: 'dcs-console-audit.demo' }) as
      { data?: Record<string, string>; metadata: { labels?: Record<string, string> } } | undefined;
    return parseAuditRecords(cm?.data?.[AUDIT_DATA_KEY]);
  };
  async function settle(app: FastifyInstance): Promise<void> {
    const rv = mdRv();
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (app.cache.stores.MachineDeployment.get(NS, 'demo-md-0')?.metadata.resourceVersion === rv)
        return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`the cache never reached resourceVersion ${rv}`);
  }

  beforeAll(async () => {
    t = await startTestCluster({ entries: 8 });
    const onWrite = (step: { kind: string; name: string }, phase: string) => {
      if (quota && phase === 'dry-run' && step.kind === 'MachineDeployment') {
        throw new KubeApiError(
          403,
          'Forbidden',
          `machinedeployments.cluster.x-k8s.io "${step.name}" is forbidden: exceeded quota: pools`,
        );
      }
    };
    a = await buildTestApp(t, { mode: 'token', executor: { pollMs: 20, onWrite } });
    b = await buildTestApp(t, { mode: 'token', executor: { pollMs: 20 } });
    operator = new TestSession(a);
    viewer = new TestSession(b);
    expect((await operator.signIn(t.cluster.operatorToken)).statusCode).toBe(200);
    expect((await viewer.signIn(t.cluster.viewerToken)).statusCode).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await a.close();
    await b.close();
    await t.close();
  });

  it('records a preview and an apply in the cluster’s ConfigMap, and an events.k8s.io Event for the apply only', async () => {
    await settle(a);
    const body = { replicas: 4, resourceVersion: mdRv() };
    const dry = await operator.request('POST', `${POOL}/scale?dryRun=true`, body);
    expect(dry.statusCode, dry.body).toBe(200);
    const real = await operator.request('POST', `${POOL}/scale`, body);
    expect(real.statusCode, real.body).toBe(200);

    const [preview, applied] = records().slice(-2);
    const who = (await operator.request('GET', '/api/v1/session')).json<{
      user: { username: string };
    }>();
    expect(preview).toMatchObject({
      user: who.user.username,
      operation: 'O-SCALE-UP',
      pool: 'demo-md-0',
      dryRun: true,
      result: 'dry-run',
      objects: ['patch MachineDeployment/demo-md-0'],
      replicas: { from: 3, to: 4 },
    });
    expect(applied).toMatchObject({ operation: 'O-SCALE-UP', dryRun: false, result: 'applied' });
    expect(applied?.diff).toContainEqual(
      expect.objectContaining({ path: '/spec/replicas', before: '3', after: '4' }),
    );
    const cm = server().get({ ...CM, name: 'dcs-console-audit.demo' }) as {
      metadata: { labels?: Record<string, string> };
    };
    expect(cm.metadata.labels?.[AUDIT_LABEL]).toBe('true');

    const events = server().list('events.k8s.io/v1', 'Event', NS) as unknown as Listed['items'];
    const ours = events.filter((e) => e.reportingController === AUDIT_REPORTING_CONTROLLER);
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatchObject({
      action: 'O-SCALE-UP',
      reason: 'Applied',
      type: 'Normal',
      regarding: { kind: 'MachineDeployment', name: 'demo-md-0', namespace: NS },
      metadata: { annotations: { [AUDIT_RECORD_ANNOTATION]: applied?.id } },
    });
  });

  it('a viewer on the other replica reads the same records on the pool’s and the cluster’s timeline, and in diagnostics', async () => {
    const pool = await viewer.request('GET', `${POOL}/timeline`);
    expect(pool.statusCode, pool.body).toBe(200);
    const view = pool.json<TimelineView>();
    expect(view.sources).toEqual({ records: 'ok', events: 'ok', eventsV1: 'ok' });
    const console = view.entries.filter((e) => e.source === 'console');
    expect(console.map((e) => [e.operation, e.result])).toEqual([
      ['O-SCALE-UP', 'applied'],
      ['O-SCALE-UP', 'dry-run'],
    ]);
    // The console's own Event announces the applied record and is not shown twice.
    expect(view.entries.filter((e) => e.reportedBy === AUDIT_REPORTING_CONTROLLER)).toEqual([]);
    expect(view.retention).toEqual({ days: 30, maxBytes: 512 * 1024 });

    const cluster = await viewer.request('GET', `${BASE}/timeline`);
    expect(cluster.json<TimelineView>().entries.filter((e) => e.source === 'console')).toHaveLength(
      2,
    );

    const diag = await viewer.request('GET', `${POOL}/diagnostics`);
    expect(diag.statusCode).toBe(200);
    expect(
      diag.json<{ timeline: TimelineView }>().timeline.entries.some((e) => e.result === 'applied'),
    ).toBe(true);
    const cdiag = await viewer.request('GET', `${BASE}/diagnostics`);
    expect(cdiag.json<{ timeline: TimelineView }>().timeline.facets.operations).toContain(
      'O-SCALE-UP',
    );
  });

  it('shows each machine’s phase transitions from the objects alone: both replicas tell the same history', async () => {
    const machines = async (s: TestSession) =>
      (await s.request('GET', `${POOL}/timeline`))
        .json<TimelineView>()
        .entries.filter((e) => e.source === 'machine');
    const fromA = await machines(operator);
    const fromB = await machines(viewer);
    expect(fromA.length).toBeGreaterThan(0);
    expect(fromB).toEqual(fromA);
    // Every machine of the pool has its creation (Pending) on it, and the Running ones their Running.
    const names = [...t.cluster.server.client.list('cluster.x-k8s.io/v1beta1', 'Machine', NS)]
      .map(
        (m) =>
          m as {
            metadata: { name: string; labels?: Record<string, string> };
            status?: { phase?: string };
          },
      )
      .filter(
        (m) =>
          m.metadata.labels?.['cluster.x-k8s.io/deployment-name'] === 'demo-md-0' &&
          m.metadata.labels['cluster.x-k8s.io/control-plane'] === undefined,
      );
    expect(names.length).toBeGreaterThan(0);
    const seen = (phase: string) =>
      new Set(fromA.filter((e) => e.phase === phase).flatMap((e) => e.machines ?? []));
    for (const m of names) {
      expect(seen('Pending').has(m.metadata.name), m.metadata.name).toBe(true);
      if (m.status?.phase === 'Running')
        expect(seen('Running').has(m.metadata.name), m.metadata.name).toBe(true);
    }
  });

  it('filters by user, operation and time; a bad time is a 400 naming the field', async () => {
    const who = (await operator.request('GET', '/api/v1/session')).json<{
      user: { username: string };
    }>();
    const get = async (q: string) =>
      (await viewer.request('GET', `${POOL}/timeline?${q}`)).json<TimelineView>().entries;
    expect((await get(`user=${encodeURIComponent(who.user.username)}`)).length).toBe(2);
    expect(await get('user=nobody')).toEqual([]);
    expect((await get('operation=O-SCALE-UP')).length).toBe(2);
    expect(await get('operation=O-DELETE-POOL')).toEqual([]);
    expect(await get('since=2999-01-01T00:00:00Z')).toEqual([]);
    expect((await get('until=2999-01-01T00:00:00Z')).length).toBeGreaterThanOrEqual(2);
    const bad = await viewer.request('GET', `${POOL}/timeline?since=yesterday`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('since');
  });

  it('a step the dry run refuses is reported as refused before any change, not as a rollback (issue 25)', async () => {
    await settle(a);
    quota = true;
    const res = await operator
      .request('POST', `${POOL}/scale`, { replicas: 5, resourceVersion: mdRv() })
      .finally(() => (quota = false));
    expect(res.statusCode, res.body).toBe(403);
    const body = res.json<{ message: string; execution: { rolledBack: boolean } }>();
    expect(body.message).toContain('refused before any change: nothing was changed');
    expect(body.message).not.toContain('undone');
    expect(body.execution.rolledBack).toBe(false);
    const last = records().at(-1);
    expect(last).toMatchObject({ dryRun: false, result: 'refused', rolledBack: false });
    const events = server().list('events.k8s.io/v1', 'Event', NS) as unknown as Listed['items'];
    const event = events.find(
      (e) =>
        (e.metadata as { annotations?: Record<string, string> }).annotations?.[
          AUDIT_RECORD_ANNOTATION
        ] === last?.id,
    );
    expect(event).toMatchObject({ reason: 'Refused', type: 'Warning' });
  });

  it('a refused request is recorded too, as a warning with its status', async () => {
    const res = await operator.request('POST', `${POOL}/scale`, {
      replicas: 4,
      resourceVersion: '1',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    const last = records().at(-1);
    expect(last?.status).toBe(res.statusCode);
    expect(last?.dryRun).toBe(false);
  });
});

describe('audit records: bounded and conflict-safe', () => {
  let t: TestCluster;
  beforeAll(async () => {
    t = await startTestCluster();
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  it('two replicas appending at once lose no record (update with resourceVersion, retried on 409)', async () => {
    const app = await buildTestApp(t);
    try {
      const recorder = (n: string) =>
        new AuditRecorder({
          client: app.kube.own,
          log: app.log,
          metrics: createMetrics(false),
          bounds: { retentionMs: 24 * 3600 * 1000, maxBytes: 512 * 1024 },
          instance: n,
          attempts: 50,
        });
      const r1 = recorder('one');
      const r2 = recorder('two');
      const input = (user: string) => ({
        user,
        action: 'nodepool.scale',
        namespace: NS,
        cluster: 'race',
        dryRun: true,
        result: 'dry-run',
      });
      await Promise.all(
        Array.from({ length: 15 }, (_, i) => [
          r1.record(input(`one-${String(i)}`)),
          r2.record(input(`two-${String(i)}`)),
        ]).flat(),
      );
      const cm = t.cluster.server.client.get({
        ...CM,
        name: 'dcs-console-audit.race',
      }) as unknown as {
        data: Record<string, string>;
      };
      const users = parseAuditRecords(cm.data[AUDIT_DATA_KEY]).map((r) => r.user);
      expect(users).toHaveLength(30);
      expect(new Set(users).size).toBe(30);
    } finally {
      await app.close();
    }
  });

  it('keeps one cluster’s records under AUDIT_MAX_BYTES, dropping the oldest and counting them', async () => {
    const app = await buildTestApp(t, { env: { AUDIT_MAX_BYTES: '4096' } });
    try {
      const s = new TestSession(app);
      await s.start();
      const rv = () =>
        (
          t.cluster.server.client.get({ ...MD, name: 'demo-md-0', namespace: NS }) as {
            metadata: { resourceVersion: string };
          }
        ).metadata.resourceVersion;
      for (let i = 0; i < 15; i++) {
        const res = await s.request('POST', `${POOL}/scale?dryRun=true`, {
          replicas: 2,
          resourceVersion: rv(),
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      const cm = t.cluster.server.client.get({
        ...CM,
        name: 'dcs-console-audit.demo',
      }) as unknown as {
        data: Record<string, string>;
      };
      const text = cm.data[AUDIT_DATA_KEY] ?? '';
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
      expect(parseAuditRecords(text).length).toBeGreaterThan(0);
      expect(parseAuditRecords(text).length).toBeLessThan(15);
      const metrics = await app.metrics.registry.getSingleMetricAsString(
        'dcs_bff_audit_dropped_total',
      );
      expect(metrics).toMatch(/dcs_bff_audit_dropped_total [1-9]/);
    } finally {
      await app.close();
    }
  });

  it('a BFF whose own identity may not write records still applies the operation; the failure is logged and counted', async () => {
    // Token mode with the viewer's kubeconfig context as the BFF's own identity: the operator's
    // write uses their own token and succeeds, the record's write is forbidden.
    const app = await buildTestApp(t, { mode: 'token', context: 'sim-viewer' });
    try {
      const s = new TestSession(app);
      expect((await s.signIn(t.cluster.operatorToken)).statusCode).toBe(200);
      const rv = (
        t.cluster.server.client.get({ ...MD, name: 'demo-md-0', namespace: NS }) as {
          metadata: { resourceVersion: string };
        }
      ).metadata.resourceVersion;
      const deadline = Date.now() + 20_000;
      while (
        app.cache.stores.MachineDeployment.get(NS, 'demo-md-0')?.metadata.resourceVersion !== rv
      ) {
        if (Date.now() > deadline) throw new Error('cache behind');
        await new Promise((r) => setTimeout(r, 20));
      }
      const res = await s.request('POST', `${POOL}/scale`, { replicas: 2, resourceVersion: rv });
      expect(res.statusCode, res.body).toBe(200);
      const text = await app.metrics.registry.getSingleMetricAsString('dcs_bff_audit_writes_total');
      expect(text).toMatch(/dcs_bff_audit_writes_total\{sink="configmap",result="failed"\} 1/);
      expect(text).toMatch(/dcs_bff_audit_writes_total\{sink="event",result="failed"\} 1/);
    } finally {
      await app.close();
    }
  });
});
