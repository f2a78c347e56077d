import { describe, expect, it } from 'vitest';
import { aMachine, aNode } from '../testing';
import { conditionTone } from './conditions';
import {
  clusterNodeSummaries,
  machineNodeOf,
  nodeJoinKeyOf,
  nodeSummaryOf,
  nodeViewOf,
  nodeViewsOf,
  nodesByName,
  type ClusterNodesView,
} from './node';

const notReady = {
  status: {
    conditions: [
      { type: 'MemoryPressure', status: 'False' },
      { type: 'Ready', status: 'False', reason: 'KubeletNotReady' },
    ],
  },
};

describe('a machine’s Node (issue 12)', () => {
  it('is Ready with its kubelet version, taints and conditions, problems first', () => {
    const v = nodeViewOf(
      aNode('w-1', {
        spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] },
        status: {
          conditions: [
            { type: 'DiskPressure', status: 'True', reason: 'KubeletHasDiskPressure' },
            { type: 'Ready', status: 'True' },
          ],
        },
      }),
    );
    expect(v).toMatchObject({
      name: 'w-1',
      state: 'Ready',
      ready: 'True',
      kubeletVersion: 'v1.33.4',
    });
    expect(v.taints).toEqual([
      { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
    ]);
    // A pressure condition that is True is a problem, and comes first.
    expect(v.conditions.map((c) => [c.type, c.problem])).toEqual([
      ['DiskPressure', true],
      ['Ready', false],
    ]);
  });

  it('is NotReady when Ready is False, Unknown when it is missing', () => {
    expect(nodeViewOf(aNode('a', notReady)).state).toBe('NotReady');
    expect(nodeViewOf(aNode('a', { status: { conditions: [] } })).state).toBe('Unknown');
  });

  it('is Cordoned when unschedulable, Draining while Cluster API drains its deleting Machine', () => {
    const cordoned = aNode('w-2', { spec: { unschedulable: true } });
    expect(nodeViewOf(cordoned).state).toBe('Cordoned');
    const deleting = aMachine({
      metadata: { name: 'm-2', deletionTimestamp: '2026-01-01T00:10:00Z' },
      status: {
        nodeRef: { name: 'w-2' },
        conditions: [
          {
            type: 'DrainingSucceeded',
            status: 'False',
            reason: 'Draining',
            lastTransitionTime: '2026-01-01T00:10:00Z',
          },
        ],
      },
    });
    expect(nodeViewOf(cordoned, deleting).state).toBe('Draining');
    const drained = aMachine({
      metadata: { name: 'm-2', deletionTimestamp: '2026-01-01T00:10:00Z' },
      status: {
        nodeRef: { name: 'w-2' },
        conditions: [
          { type: 'DrainingSucceeded', status: 'True', lastTransitionTime: '2026-01-01T00:11:00Z' },
        ],
      },
    });
    expect(nodeViewOf(cordoned, drained).state).toBe('Cordoned');
    // Cluster API cordons before it writes the Machine's drain progress: already Draining.
    const justDeleted = aMachine({
      metadata: { name: 'm-2', deletionTimestamp: '2026-01-01T00:10:00Z' },
      status: { nodeRef: { name: 'w-2' } },
    });
    expect(nodeViewOf(cordoned, justDeleted).state).toBe('Draining');
    expect(nodeViewOf(aNode('w-2'), justDeleted).state).toBe('Ready');
  });

  it('joins each Node to the Machine whose nodeRef names it, and leaves unclaimed Nodes unjoined', () => {
    const m = aMachine({ metadata: { name: 'm-1' }, status: { nodeRef: { name: 'w-1' } } });
    const views = nodeViewsOf([aNode('w-1'), aNode('stray')], [m]);
    expect(views.map((v) => [v.name, v.machine])).toEqual([
      ['stray', undefined],
      ['w-1', 'm-1'],
    ]);
  });

  it('shows a pressure condition that is False as healthy, True or Unknown as a problem (negative polarity)', () => {
    const v = nodeViewOf(
      aNode('w-3', {
        status: {
          conditions: [
            { type: 'MemoryPressure', status: 'False' },
            { type: 'PIDPressure', status: 'Unknown', reason: 'NodeStatusUnknown' },
            { type: 'NetworkUnavailable', status: 'True', reason: 'NoRouteCreated' },
            { type: 'Ready', status: 'Maybe' },
          ],
        },
      }),
    );
    const tones = Object.fromEntries(v.conditions.map((c) => [c.type, conditionTone(c)]));
    expect(tones).toEqual({
      MemoryPressure: 'ok',
      PIDPressure: 'unknown',
      NetworkUnavailable: 'warning',
      // A status outside True/False/Unknown is read as Unknown, and Ready not True is a problem.
      Ready: 'unknown',
    });
    expect(v.conditions.filter((c) => c.problem).map((c) => c.type)).toEqual([
      'PIDPressure',
      'NetworkUnavailable',
      'Ready',
    ]);
    expect(v.conditions.at(-1)?.type).toBe('MemoryPressure');
  });
});

describe('the Node column of the machines tables (issue 12)', () => {
  const ready = nodeSummaryOf(nodeViewOf(aNode('w-1')));
  const byName = nodesByName([ready, nodeSummaryOf(nodeViewOf(aNode('w-2', notReady)))]);

  it('joins a machine to its Node by nodeRef: state and kubelet version', () => {
    expect(machineNodeOf({ nodeName: 'w-1', deleting: false }, byName)).toEqual({
      state: 'Ready',
      node: ready,
    });
    expect(ready.kubeletVersion).toBe('v1.33.4');
    expect(machineNodeOf({ nodeName: 'w-2', deleting: false }, byName).state).toBe('NotReady');
  });

  it('says no Node yet without a nodeRef, Deleted when a deleting machine’s Node is gone, Missing otherwise', () => {
    expect(machineNodeOf({ deleting: false }, byName)).toEqual({ state: 'NoNode' });
    expect(machineNodeOf({ nodeName: '', deleting: true }, byName)).toEqual({ state: 'NoNode' });
    expect(machineNodeOf({ nodeName: 'gone', deleting: true }, byName)).toEqual({
      state: 'Deleted',
    });
    expect(machineNodeOf({ nodeName: 'gone', deleting: false }, byName)).toEqual({
      state: 'Missing',
    });
  });

  it('summarizes an ok answer to one line per Node and passes every reason through unchanged', () => {
    const ok: ClusterNodesView = {
      status: 'ok',
      secret: 'ns/x-kubeconfig',
      nodes: [nodeViewOf(aNode('w-1'))],
    };
    const s = clusterNodeSummaries(ok);
    expect(s).toEqual({ status: 'ok', secret: 'ns/x-kubeconfig', nodes: [ready] });
    expect(Object.keys(ready).sort()).toEqual([
      'kubeletVersion',
      'name',
      'ready',
      'state',
      'unschedulable',
    ]);
    const reasons: ClusterNodesView[] = [
      { status: 'forbidden', secret: 's', message: 'you may not read secret s' },
      { status: 'no-kubeconfig', secret: 's', message: 'not initialized' },
      { status: 'unreachable', secret: 's', since: '2026-01-01T00:00:00Z', message: 'refused' },
      { status: 'pending', secret: 's', message: 'listing' },
    ];
    for (const r of reasons) expect(clusterNodeSummaries(r)).toBe(r);
  });

  it('keys a Machine by every input of the join, and by nothing else (the BFF reuses a join while the key holds)', () => {
    const base = aMachine({ metadata: { name: 'm-1' }, status: { nodeRef: { name: 'w-1' } } });
    const key = nodeJoinKeyOf(base);
    const changed = [
      aMachine({ metadata: { name: 'm-2' }, status: { nodeRef: { name: 'w-1' } } }),
      aMachine({ metadata: { name: 'm-1' }, status: { nodeRef: { name: 'w-9' } } }),
      aMachine({
        metadata: { name: 'm-1', deletionTimestamp: '2026-01-01T00:10:00Z' },
        status: { nodeRef: { name: 'w-1' } },
      }),
      aMachine({
        metadata: { name: 'm-1' },
        status: {
          nodeRef: { name: 'w-1' },
          deletion: { nodeDrainStartTime: '2026-01-01T00:10:00Z' },
        },
      }),
      aMachine({
        metadata: { name: 'm-1' },
        status: {
          nodeRef: { name: 'w-1' },
          conditions: [
            {
              type: 'DrainingSucceeded',
              status: 'False',
              reason: 'Draining',
              lastTransitionTime: '2026-01-01T00:10:00Z',
            },
          ],
        },
      }),
    ];
    for (const m of changed) expect(nodeJoinKeyOf(m)).not.toBe(key);
    const relabelled = aMachine({
      metadata: { name: 'm-1', labels: { team: 'a' } },
      status: { nodeRef: { name: 'w-1' }, phase: 'Provisioned' },
    });
    expect(nodeJoinKeyOf(relabelled)).toBe(key);
  });
});
