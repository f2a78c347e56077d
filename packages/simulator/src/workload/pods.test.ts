import type { KubeObject } from '@dcs/apiserver';
import { parseDrainMessage } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { drainConditionMessage } from '../logic/machine-status';
import { pdbStatus, podStatus, selectorMatches, unschedulableMessage } from './pods';

/** The disruption controller's arithmetic (pkg/controller/disruption) and the Pods' reports. */

const NOW = Date.parse('2026-12-07T10:00:00Z');
const ISO = '2026-12-07T10:00:00Z';

const pod = (
  name: string,
  o: { ready?: boolean; deleting?: boolean; owner?: string; labels?: Record<string, string> } = {},
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'default',
    labels: o.labels ?? { app: 'web' },
    ...(o.deleting ? { deletionTimestamp: ISO } : {}),
    ownerReferences: [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'web',
        uid: o.owner ?? 'rs-1',
        controller: true,
      },
    ],
  },
  spec: { nodeName: 'n1' },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
  },
});

const pdb = (spec: Record<string, unknown>, status: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'b', namespace: 'default', generation: 2 },
  spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
  status,
});

const scale = (n: number) => () => n;

describe('pdbStatus', () => {
  it('minAvailable as a number: expected = the selected Pods, desired = the number', () => {
    const { status } = pdbStatus(
      pdb({ minAvailable: 2 }),
      [pod('a'), pod('b'), pod('c', { ready: false })],
      scale(3),
      NOW,
      ISO,
    );
    expect(status).toMatchObject({
      expectedPods: 3,
      desiredHealthy: 2,
      currentHealthy: 2,
      disruptionsAllowed: 0,
      observedGeneration: 2,
      conditions: [{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' }],
    });
  });

  it('maxUnavailable and percentages: expected = the controllers’ scale, rounded up', () => {
    const pods = [pod('a'), pod('b'), pod('c'), pod('d')];
    expect(pdbStatus(pdb({ maxUnavailable: 1 }), pods, scale(4), NOW, ISO).status).toMatchObject({
      expectedPods: 4,
      desiredHealthy: 3,
      disruptionsAllowed: 1,
      conditions: [{ status: 'True', reason: 'SufficientPods' }],
    });
    expect(pdbStatus(pdb({ minAvailable: '50%' }), pods, scale(5), NOW, ISO).status).toMatchObject({
      expectedPods: 5,
      desiredHealthy: 3,
      currentHealthy: 4,
      disruptionsAllowed: 1,
    });
    expect(
      pdbStatus(pdb({ maxUnavailable: '25%' }), pods, scale(4), NOW, ISO).status,
    ).toMatchObject({
      desiredHealthy: 3,
    });
  });

  it('terminating Pods and recently disrupted ones are not healthy; an entry older than 2 minutes is dropped', () => {
    const recent = new Date(NOW - 30_000).toISOString();
    const old = new Date(NOW - 3 * 60_000).toISOString();
    const r = pdbStatus(
      pdb({ minAvailable: 1 }, { disruptedPods: { a: recent, b: old } }),
      [pod('a'), pod('b'), pod('c', { deleting: true })],
      scale(3),
      NOW,
      ISO,
    );
    expect(r.status).toMatchObject({ currentHealthy: 1, disruptedPods: { a: recent } });
    expect(r.recheckMs).toBe(90_000);
  });

  it('a Pod whose controller is unknown fails safe: no disruption, SyncFailed', () => {
    const { status } = pdbStatus(
      pdb({ maxUnavailable: 1 }, { disruptionsAllowed: 3 }),
      [pod('a', { owner: 'gone' })],
      () => undefined,
      NOW,
      ISO,
    );
    expect(status).toMatchObject({
      disruptionsAllowed: 0,
      conditions: [
        { status: 'False', reason: 'SyncFailed', message: 'found no controllers for pod "a"' },
      ],
    });
  });

  it('no Pods selected: nothing allowed (expectedPods 0)', () => {
    expect(pdbStatus(pdb({ maxUnavailable: 1 }), [], scale(0), NOW, ISO).status).toMatchObject({
      expectedPods: 0,
      disruptionsAllowed: 0,
    });
  });
});

describe('selectors and reports', () => {
  it('matchLabels and matchExpressions; an empty selector matches nothing', () => {
    expect(selectorMatches({ matchLabels: { app: 'web' } }, { app: 'web', x: 'y' })).toBe(true);
    expect(selectorMatches({}, { app: 'web' })).toBe(false);
    expect(
      selectorMatches(
        {
          matchExpressions: [
            { key: 'app', operator: 'In', values: ['web', 'api'] },
            { key: 'tier', operator: 'DoesNotExist' },
          ],
        },
        { app: 'api' },
      ),
    ).toBe(true);
    expect(
      selectorMatches(
        { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] },
        { app: 'web' },
      ),
    ).toBe(false);
  });

  it('the kubelet reports Running and Ready on a Ready Node, Pending on one that is not', () => {
    const node = (ready: boolean): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1' },
      status: {
        conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
        addresses: [{ type: 'InternalIP', address: '10.0.0.7' }],
      },
    });
    const p = { ...pod('a'), status: {} };
    expect(podStatus(p, node(true), ISO)).toMatchObject({ phase: 'Running', hostIP: '10.0.0.7' });
    expect(podStatus(p, node(false), ISO)).toMatchObject({
      phase: 'Pending',
      containerStatuses: [],
    });
    expect(podStatus(p, undefined, ISO)).toMatchObject({
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
    });
  });

  it("the scheduler's message counts why each Node does not fit", () => {
    const n = (name: string, o: { cordoned?: boolean; ready?: boolean }): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name },
      spec: o.cordoned ? { unschedulable: true } : {},
      status: { conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
    });
    expect(
      unschedulableMessage([
        n('a', { cordoned: true }),
        n('b', { ready: false }),
        n('c', { cordoned: true }),
      ]),
    ).toBe(
      '0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 2 node(s) were unschedulable. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
  });
});

describe('the drain message round-trips through the domain parser', () => {
  it('evicting, refused by a budget (with causes), and more errors than five', () => {
    const refused =
      "Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 3 healthy pods and has 3 currently";
    const message = drainConditionMessage('2026-12-07T09:58:00Z', {
      podsDeletionTimestampSet: [
        'default/web-a',
        'default/web-b',
        'default/web-c',
        'default/web-d',
      ],
      podsFailedEviction: new Map([[refused, ['default/web-e', 'default/web-f']]]),
      podsToTriggerEvictionLater: [],
    });
    const parsed = parseDrainMessage(message);
    expect(parsed.startedAt).toBe('2026-12-07T09:58:00Z');
    expect(parsed.evicting).toEqual({
      pods: ['default/web-a', 'default/web-b', 'default/web-c'],
      more: 1,
    });
    expect(parsed.failed).toEqual([
      {
        error: refused,
        pods: ['default/web-e', 'default/web-f'],
        more: 0,
        pdb: { name: 'web', needs: 3, has: 3 },
      },
    ]);
  });
});
