import { describe, expect, it } from 'vitest';
import type { Machine } from '../schemas/capi';
import type { Node } from '../schemas/core';
import { aDCSMachine, aMachine, aNode } from '../testing';
import { machineView } from './machine';
import { NODE_NOT_HEALTHY_CHECKLIST } from './diagnosis';
import {
  hasMachineRowProblem,
  machineRowProblems,
  nodeProblemChecklist,
  nodeProblemOf,
} from './machine-problems';
import { machineNodeOf, nodeSummaryOf, nodeViewOf, nodesByName } from './node';

/**
 * Issue 12: what makes a machine row a problem for support, its Node included. The Nodes tab's
 * "Problems only" filter and the row's badge both read this one decision.
 */

const NOW = new Date('2026-01-01T01:00:00Z');
const NAME = 'demo-md-0-abc12-m1';

/** A machine row as the tables see it: the Machine's view joined to its Node's summary. */
function row(node: Node | undefined, machine: Machine = aMachine({ metadata: { name: NAME } })) {
  const view = machineView(machine, undefined, NOW);
  const byName = nodesByName(node ? [nodeSummaryOf(nodeViewOf(node, machine))] : []);
  return { view, joined: machineNodeOf(view, byName) };
}

const ready = (status: 'True' | 'False' | 'Unknown') => ({
  status: {
    conditions: [
      { type: 'MemoryPressure', status: 'False' },
      { type: 'Ready', status, reason: status === 'True' ? 'KubeletReady' : 'KubeletNotReady' },
    ],
  },
});

describe('a machine row’s problems (issue 12: the Nodes tab’s "Problems only" and the row’s badge)', () => {
  it('a Running machine with a Ready, schedulable Node and healthy conditions is no problem', () => {
    const { view, joined } = row(aNode(NAME));
    expect(machineRowProblems(view, joined)).toEqual([]);
    expect(hasMachineRowProblem(view, joined)).toBe(false);
  });

  it('a Running machine whose Node is NotReady is a problem, though every Cluster API condition is True', () => {
    const { view, joined } = row(aNode(NAME, ready('False')));
    expect(view.conditions.some((c) => c.problem)).toBe(false);
    expect(machineRowProblems(view, joined)).toEqual([
      { source: 'node', code: 'NotReady', severity: 'error', node: NAME, conditions: [] },
    ]);
    expect(hasMachineRowProblem(view, joined)).toBe(true);
  });

  it('a Node whose Ready is Unknown (the kubelet stopped reporting) is a problem', () => {
    const { view, joined } = row(aNode(NAME, ready('Unknown')));
    expect(nodeProblemOf(view, joined)?.code).toBe('Unknown');
  });

  it('a cordoned Node of a machine that is not being deleted is a problem (nothing schedules there)', () => {
    const { view, joined } = row(aNode(NAME, { spec: { unschedulable: true } }));
    expect(joined.state).toBe('Cordoned');
    expect(nodeProblemOf(view, joined)).toEqual({
      code: 'Cordoned',
      severity: 'warning',
      node: NAME,
      conditions: [],
    });
  });

  it('a Node under pressure is a problem and names each pressure that is not False', () => {
    const { view, joined } = row(
      aNode(NAME, {
        status: {
          conditions: [
            { type: 'MemoryPressure', status: 'True', reason: 'KubeletHasInsufficientMemory' },
            { type: 'DiskPressure', status: 'Unknown' },
            { type: 'PIDPressure', status: 'False' },
            { type: 'NetworkUnavailable', status: 'False' },
            { type: 'Ready', status: 'True' },
          ],
        },
      }),
    );
    expect(joined.state).toBe('Ready');
    expect(nodeProblemOf(view, joined)).toEqual({
      code: 'Pressure',
      severity: 'warning',
      node: NAME,
      conditions: ['MemoryPressure', 'DiskPressure'],
    });
  });

  it('a nodeRef naming a Node the workload cluster does not have is a problem', () => {
    const { view, joined } = row(undefined);
    expect(joined.state).toBe('Missing');
    expect(nodeProblemOf(view, joined)?.code).toBe('Missing');
  });

  it('a deleting machine’s cordoned, draining or deleted Node is no problem: Cluster API does it on purpose', () => {
    const deleting = aMachine({
      metadata: { name: NAME, deletionTimestamp: '2026-01-01T00:50:00Z' },
      status: {
        deletion: { nodeDrainStartTime: '2026-01-01T00:50:01Z' },
        conditions: [
          { type: 'Ready', status: 'True' },
          { type: 'DrainingSucceeded', status: 'False', reason: 'Draining', severity: 'Info' },
        ],
      },
    });
    const draining = row(aNode(NAME, { spec: { unschedulable: true } }), deleting);
    expect(draining.joined.state).toBe('Draining');
    expect(machineRowProblems(draining.view, draining.joined)).toEqual([]);
    const gone = row(undefined, deleting);
    expect(gone.joined.state).toBe('Deleted');
    expect(hasMachineRowProblem(gone.view, gone.joined)).toBe(false);
  });

  it('issue 26 item 6: a drain a PodDisruptionBudget refuses is a problem of the row, named, before the machine’s conditions', () => {
    const message = [
      'Drain not completed yet (started at 2026-01-01T00:50:01Z):',
      '* Pods with eviction failed:',
      "  * Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 2 healthy pods and has 2 currently: default/web-1, default/web-2",
      "  * Cannot evict pod as it would violate the pod's disruption budget. The disruption budget db needs 1 healthy pods and has 1 currently: data/db-0",
    ].join('\n');
    const blocked = aMachine({
      metadata: { name: NAME, deletionTimestamp: '2026-01-01T00:50:00Z' },
      status: {
        deletion: { nodeDrainStartTime: '2026-01-01T00:50:01Z' },
        conditions: [
          { type: 'Ready', status: 'False', reason: 'Deleting', severity: 'Warning' },
          {
            type: 'DrainingSucceeded',
            status: 'False',
            reason: 'Draining',
            severity: 'Info',
            message,
          },
        ],
        v1beta2: {
          conditions: [{ type: 'Deleting', status: 'True', reason: 'DrainingNode', message }],
        },
      },
    });
    const r = row(aNode(NAME, { spec: { unschedulable: true } }), blocked);
    const problems = machineRowProblems(r.view, r.joined);
    expect(problems[0]).toEqual({
      source: 'drain',
      severity: 'warning',
      budgets: [
        { name: 'web', needs: 2, has: 2 },
        { name: 'db', needs: 1, has: 1 },
      ],
    });
    expect(problems.map((p) => p.source)).toEqual(['drain', 'machine']);
    expect(hasMachineRowProblem({ ...r.view, conditions: [] }, r.joined)).toBe(true);
    // The same machine draining Pods that go (no refusal) is no drain problem.
    const plain = aMachine({
      metadata: { name: NAME, deletionTimestamp: '2026-01-01T00:50:00Z' },
      status: {
        v1beta2: {
          conditions: [
            {
              type: 'Deleting',
              status: 'True',
              reason: 'DrainingNode',
              message:
                'Drain not completed yet (started at 2026-01-01T00:50:01Z):\n* Pods with deletionTimestamp that still exist: default/web-1',
            },
          ],
        },
      },
    });
    const p = row(undefined, plain);
    expect(p.view.drainBlockedBy).toBeUndefined();
    expect(hasMachineRowProblem(p.view, p.joined)).toBe(false);
  });

  it('without the Nodes (not readable, still listing) or without a nodeRef, only the machine’s own problems count', () => {
    const { view } = row(aNode(NAME, ready('False')));
    expect(hasMachineRowProblem(view)).toBe(false);
    const provisioning = aMachine({ metadata: { name: NAME }, status: { phase: 'Provisioning' } });
    delete provisioning.status?.nodeRef;
    const r = row(undefined, provisioning);
    expect(r.joined.state).toBe('NoNode');
    expect(nodeProblemOf(r.view, r.joined)).toBeUndefined();
    expect(machineRowProblems(r.view, r.joined).map((p) => p.source)).not.toContain('node');
  });

  it('orders the problems most telling first: diagnosis, failure, the Machine’s conditions, the DCSMachine’s, the Node', () => {
    const machine = aMachine({
      metadata: { name: NAME },
      status: {
        failureReason: 'CreateError',
        failureMessage: 'VM clone failed',
        conditions: [
          { type: 'Ready', status: 'False', severity: 'Warning', reason: 'NodeNotReady' },
        ],
      },
    });
    const view = machineView(
      machine,
      aDCSMachine({
        metadata: { name: NAME },
        status: {
          conditions: [{ type: 'VMProvisioned', status: 'False', severity: 'Error' }],
        },
      }),
      NOW,
    );
    const joined = machineNodeOf(
      view,
      nodesByName([nodeSummaryOf(nodeViewOf(aNode(NAME, ready('False')), machine))]),
    );
    const sources = machineRowProblems(view, joined).map((p) => p.source);
    // The diagnosis of a failed machine comes first when domain diagnoses one.
    expect(sources.filter((s) => s !== 'diagnosis')).toEqual([
      'failure',
      'machine',
      'infrastructure',
      'node',
    ]);
    expect(hasMachineRowProblem(view, joined)).toBe(true);
  });

  it('the Node summary carries the pressures that are not False, and nothing for a healthy Node (small answers)', () => {
    expect(nodeSummaryOf(nodeViewOf(aNode(NAME))).pressure).toBeUndefined();
    const hot = aNode(NAME, {
      status: {
        conditions: [
          { type: 'PIDPressure', status: 'True' },
          { type: 'Ready', status: 'False' },
        ],
      },
    });
    expect(nodeSummaryOf(nodeViewOf(hot)).pressure).toEqual(['PIDPressure']);
  });

  it('a missing, NotReady or silent Node gets the kubelet checks of node-not-healthy; pressure and a cordon say what to do themselves', () => {
    for (const code of ['Missing', 'NotReady', 'Unknown'] as const)
      expect(nodeProblemChecklist(code)).toEqual(NODE_NOT_HEALTHY_CHECKLIST);
    for (const code of ['Pressure', 'Cordoned'] as const)
      expect(nodeProblemChecklist(code)).toEqual([]);
  });
});
