import { describe, expect, it } from 'vitest';
import { aMachine, aNode } from '../testing';
import { nodeViewOf, nodeViewsOf } from './node';

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
  });

  it('joins each Node to the Machine whose nodeRef names it, and leaves unclaimed Nodes unjoined', () => {
    const m = aMachine({ metadata: { name: 'm-1' }, status: { nodeRef: { name: 'w-1' } } });
    const views = nodeViewsOf([aNode('w-1'), aNode('stray')], [m]);
    expect(views.map((v) => [v.name, v.machine])).toEqual([
      ['stray', undefined],
      ['w-1', 'm-1'],
    ]);
  });
});
