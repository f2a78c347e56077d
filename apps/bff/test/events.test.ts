import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubjectEventsView } from '../src/views/events';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { TestSession } from './support/session';

/**
 * Issue 26, item 7: the Events of one page's objects, both Event APIs, against the embedded
 * cluster, whose two Event APIs share one store as a real API server's do: each Event is listed
 * once, selected by the API server, newest first, filterable by type and reason; bad queries are
 * 400s that name the parameter; a viewer reads Events as RBAC lets them.
 */

const NS = 'cpaas-system';
const URL = `/api/v1/namespaces/${NS}/events`;
const MACHINE = 'demo-md-0-abc12-x7k2p';

describe('events of a page’s objects (issue 26, item 7)', () => {
  let t: TestCluster;
  let app: FastifyInstance;
  let operator: TestSession;
  let viewer: TestSession;

  beforeAll(async () => {
    t = await startTestCluster();
    const client = t.cluster.server.client;
    const core = (name: string, o: Record<string, unknown>) =>
      client.create({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace: NS },
        type: 'Normal',
        count: 1,
        source: { component: 'test' },
        ...o,
      });
    await core('drain', {
      involvedObject: { kind: 'Machine', name: MACHINE, namespace: NS },
      type: 'Warning',
      reason: 'FailedDrain',
      message: 'Cannot evict pod as it would violate the pod’s disruption budget',
      count: 4,
      lastTimestamp: '2026-01-01T10:05:00Z',
    });
    await core('other-machine', {
      involvedObject: { kind: 'Machine', name: 'another-machine', namespace: NS },
      reason: 'SuccessfulSetNodeRef',
      message: 'not this one',
      lastTimestamp: '2026-01-01T10:06:00Z',
    });
    await core('same-name-other-kind', {
      involvedObject: { kind: 'Node', name: MACHINE },
      reason: 'NodeReady',
      message: 'a Node, not the Machine',
      lastTimestamp: '2026-01-01T10:07:00Z',
    });
    await client.create({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'created', namespace: NS },
      eventTime: '2026-01-01T10:00:00.000000Z',
      regarding: { kind: 'Machine', name: MACHINE, namespace: NS },
      reason: 'MachineCreated',
      note: 'created',
      type: 'Normal',
      action: 'Create',
      reportingController: 'cluster.x-k8s.io/machine-controller',
      reportingInstance: 'capi-controller-manager-0',
    });
    await core('dcs', {
      involvedObject: { kind: 'DCSMachine', name: MACHINE, namespace: NS },
      reason: 'VMRunning',
      message: 'VM is running',
      lastTimestamp: '2026-01-01T10:03:00Z',
    });
    await core('md-warning', {
      involvedObject: { kind: 'MachineDeployment', name: 'demo-md-0', namespace: NS },
      type: 'Warning',
      reason: 'ReconcileError',
      message: 'cannot reconcile',
      lastTimestamp: '2026-01-01T11:00:00Z',
    });
    app = await buildTestApp(t, { mode: 'token' });
    operator = new TestSession(app);
    viewer = new TestSession(app);
    expect((await operator.signIn(t.cluster.operatorToken)).statusCode).toBe(200);
    expect((await viewer.signIn(t.cluster.viewerToken)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  const get = async (s: TestSession, query: string) => {
    const res = await s.request('GET', `${URL}?${query}`);
    return { status: res.statusCode, body: res.body, view: res.json<SubjectEventsView>() };
  };

  it('lists each Event of the object once (both APIs share one store), newest first, and no other object’s', async () => {
    const { status, body, view } = await get(operator, `object=Machine/${MACHINE}`);
    expect(status, body).toBe(200);
    expect(view.entries.map((e) => e.reason)).toEqual(['FailedDrain', 'MachineCreated']);
    expect(view.entries[0]).toMatchObject({ severity: 'warning', count: 4 });
    expect(view.sources).toEqual({ events: 'ok', eventsV1: 'ok' });
    expect(view.facets).toEqual({
      types: { Normal: 1, Warning: 1 },
      reasons: ['FailedDrain', 'MachineCreated'],
    });
  });

  it('takes several objects of one page, and filters by type and reason', async () => {
    const both = await get(operator, `object=Machine/${MACHINE}&object=DCSMachine/${MACHINE}`);
    expect(both.view.entries.map((e) => e.reason)).toEqual([
      'FailedDrain',
      'VMRunning',
      'MachineCreated',
    ]);
    const warnings = await get(
      operator,
      `object=Machine/${MACHINE}&object=DCSMachine/${MACHINE}&type=Warning`,
    );
    expect(warnings.view.entries.map((e) => e.reason)).toEqual(['FailedDrain']);
    expect(warnings.view.matching).toBe(1);
    const reason = await get(operator, `object=DCSMachine/${MACHINE}&reason=VMRunning`);
    expect(reason.view.entries.map((e) => e.object)).toEqual([`DCSMachine/${MACHINE}`]);
  });

  it('a pool’s Events come from both APIs, its objects only, filterable the same way', async () => {
    const pool = `/api/v1/clusters/${NS}/demo/nodepools/demo-md-0/events`;
    const all = await operator.request('GET', pool);
    expect(all.statusCode, all.body).toBe(200);
    const view = all.json<SubjectEventsView>();
    expect(view.entries.map((e) => e.object)).toContain('MachineDeployment/demo-md-0');
    expect(view.entries.map((e) => e.object)).not.toContain('Machine/another-machine');
    expect(view.sources).toEqual({ events: 'ok', eventsV1: 'ok' });
    const warnings = await operator.request('GET', `${pool}?type=Warning&reason=ReconcileError`);
    expect(warnings.json<SubjectEventsView>().entries.map((e) => e.reason)).toEqual([
      'ReconcileError',
    ]);
    expect((await operator.request('GET', `${pool}?type=Fatal`)).statusCode).toBe(400);
  });

  it('a pool’s diagnostics bundle reads both Event APIs: each Event once (one store), newest first, and which API it could read', async () => {
    await t.cluster.server.client.create({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'md-scaled', namespace: NS },
      eventTime: '2026-01-01T12:00:00.000000Z',
      regarding: { kind: 'MachineDeployment', name: 'demo-md-0', namespace: NS },
      reason: 'SuccessfulScale',
      note: 'scaled to 4',
      type: 'Normal',
      action: 'Scale',
      reportingController: 'cluster.x-k8s.io/machinedeployment-controller',
      reportingInstance: 'capi-controller-manager-0',
    });
    const res = await operator.request(
      'GET',
      `/api/v1/clusters/${NS}/demo/nodepools/demo-md-0/diagnostics`,
    );
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    const bundle = res.json<{
      events: { reason: string; message: string; object: string }[];
      eventSources: { events: string; eventsV1: string };
    }>();
    expect(bundle.eventSources).toEqual({ events: 'ok', eventsV1: 'ok' });
    expect(bundle.events.map((e) => `${e.object} ${e.reason} ${e.message}`)).toEqual([
      'MachineDeployment/demo-md-0 SuccessfulScale scaled to 4',
      'MachineDeployment/demo-md-0 ReconcileError cannot reconcile',
    ]);
  });

  it('a viewer reads them as RBAC lets them', async () => {
    const { status, view } = await get(viewer, `object=Machine/${MACHINE}`);
    expect(status).toBe(200);
    expect(view.entries.map((e) => e.reason)).toEqual(['FailedDrain', 'MachineCreated']);
  });

  it('says what a missing object parameter is', async () => {
    const res = await operator.request('GET', URL);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(
      'object: required: the object whose Events to list, as Kind/name (repeat for several)',
    );
  });

  it.each([
    ['no object', '', 'object'],
    ['an object without its kind', `object=${MACHINE}`, 'object'],
    ['a kind that is no Kubernetes kind', 'object=__proto__/x', 'object'],
    ['a name that is no Kubernetes name', 'object=Machine/Not_A_Name', 'object'],
    [
      'more than 8 objects',
      Array.from({ length: 9 }, (_, i) => `object=Machine/m${String(i)}`).join('&'),
      'object',
    ],
    ['an unknown type', `object=Machine/${MACHINE}&type=Error`, 'type'],
    ['a limit of 0', `object=Machine/${MACHINE}&limit=0`, 'limit'],
  ])('refuses %s with a 400 naming the parameter', async (_name, query, field) => {
    const res = await operator.request('GET', `${URL}?${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toContain(field);
  });
});
