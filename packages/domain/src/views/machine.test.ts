import { describe, expect, it } from 'vitest';
import { ANNOTATION_DELETE_MACHINE } from '../labels';
import { anIpEntry } from '../testing';
import { controlPlaneMachine, minutesAfterCreation, NOW, provisioning, worker } from './fixtures';
import { isMachineAvailable, isMachineReady, machineView, poolIdOf } from './machine';

describe('machineView', () => {
  it("U-6: carries the DCSMachine's conditions (the VM on DCS), problems first", () => {
    const { machine, dcsMachine } = worker('demo-md-0-abc12-m1', { entry: 1 });
    expect(machineView(machine, dcsMachine, NOW).infrastructureConditions).toBeUndefined();
    dcsMachine.status = {
      ...dcsMachine.status,
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'VMProvisioned', status: 'False', severity: 'Error', reason: 'PlacementFailed' },
      ],
    };
    const v = machineView(machine, dcsMachine, NOW);
    expect(v.infrastructureConditions?.map((c) => [c.type, c.problem])).toEqual([
      ['VMProvisioned', true],
      ['Ready', false],
    ]);
  });

  it('shows a Running worker machine with its node, IP, hostname, version and age source', () => {
    const { machine, dcsMachine } = worker('demo-md-0-abc12-m1', { entry: 1 });
    const v = machineView(machine, dcsMachine, NOW, { ipPoolEntry: anIpEntry(1) });
    expect(v).toEqual({
      id: 'demo-md-0-abc12-m1',
      name: 'demo-md-0-abc12-m1',
      namespace: 'cpaas-system',
      cluster: 'demo',
      poolId: 'demo-md-0',
      machineSet: 'demo-md-0-abc12',
      phase: 'Running',
      ready: true,
      nodeName: 'demo-md-0-abc12-m1',
      ip: '10.0.1.11',
      hostname: 'worker-node-1',
      version: 'v1.33.4',
      providerID: 'dcs://demo-md-0-abc12-m1',
      createdAt: '2026-01-01T00:00:00Z',
      deleting: false,
      markedForDeletion: false,
      conditions: expect.any(Array) as unknown,
      dcsMachineName: 'demo-md-0-abc12-m1',
      vmState: 'running',
      resourceVersion: '1',
    });
    expect(v.conditions.map((c) => c.type)).toEqual([
      'Ready',
      'BootstrapReady',
      'InfrastructureReady',
      'NodeHealthy',
    ]);
    // Plain data: a JSON round trip gives the same view.
    expect(JSON.parse(JSON.stringify(v))).toEqual(v);
  });

  it("takes the IP from the DCSMachine's claimed entry until the Machine reports addresses", () => {
    const { machine, dcsMachine } = provisioning(worker('w-1', { entry: 2 }));
    expect(machine.status?.addresses).toBeUndefined();
    expect(machineView(machine, dcsMachine, NOW).ip).toBe('10.0.1.12');
  });

  it('prefers the Machine InternalIP to the claimed entry', () => {
    const { machine, dcsMachine } = worker('w-1', { entry: 2 });
    machine.status = {
      ...machine.status,
      addresses: [{ type: 'InternalIP', address: '10.9.9.9' }],
    };
    expect(machineView(machine, dcsMachine, NOW).ip).toBe('10.9.9.9');
  });

  it('R-MD-6: shows the machines marked for deletion, and those being deleted', () => {
    const { machine, dcsMachine } = worker('w-1', { entry: 1 });
    machine.metadata.annotations = { [ANNOTATION_DELETE_MACHINE]: 'true' };
    expect(machineView(machine, dcsMachine, NOW)).toMatchObject({
      markedForDeletion: true,
      deleting: false,
      ready: true,
    });
    machine.metadata.deletionTimestamp = minutesAfterCreation(59);
    expect(machineView(machine, dcsMachine, NOW)).toMatchObject({
      deleting: true,
      phase: 'Deleting',
      ready: false,
    });
  });

  it("issue 23: a deleting machine's step and the Pods its drain waits for, from v1beta2's Deleting condition", () => {
    const { machine, dcsMachine } = worker('w-1', { entry: 1 });
    machine.metadata.generation = 2;
    machine.metadata.deletionTimestamp = minutesAfterCreation(59);
    const message =
      "Drain not completed yet (started at 2026-01-01T00:59:00Z):\n* Pods demo/web-0: cannot evict pod as it would violate the pod's disruption budget.";
    machine.status = {
      ...machine.status,
      v1beta2: {
        conditions: [
          {
            type: 'Deleting',
            status: 'True',
            reason: 'DrainingNode',
            message,
            lastTransitionTime: minutesAfterCreation(59),
            observedGeneration: 2,
          },
          { type: 'Ready', status: 'False', reason: 'NotReady', observedGeneration: 1 },
        ],
      },
    };
    const view = machineView(machine, dcsMachine, NOW);
    expect(view.deletionStep).toEqual({
      reason: 'DrainingNode',
      message,
      since: minutesAfterCreation(59),
    });
    expect(view.v1beta2Conditions?.map((c) => [c.type, c.problem, c.stale ?? false])).toEqual([
      ['Ready', true, true],
      ['Deleting', false, false],
    ]);
  });

  it('issue 23: a machine with v1beta1 status only has no v1beta2 conditions and no deletion step', () => {
    const { machine, dcsMachine } = worker('w-1', { entry: 1 });
    machine.metadata.deletionTimestamp = minutesAfterCreation(59);
    const view = machineView(machine, dcsMachine, NOW);
    expect(view.v1beta2Conditions).toBeUndefined();
    expect(view.deletionStep).toBeUndefined();
    // Deleting False (not deleting) is no step either.
    machine.status = {
      ...machine.status,
      v1beta2: { conditions: [{ type: 'Deleting', status: 'False', reason: 'NotDeleting' }] },
    };
    expect(machineView(machine, dcsMachine, NOW).deletionStep).toBeUndefined();
  });

  it('control-plane machines belong to the control-plane pool', () => {
    const { machine } = controlPlaneMachine('demo-cp-1');
    expect(poolIdOf(machine)).toBe('control-plane');
    expect(machineView(machine, undefined, NOW).poolId).toBe('control-plane');
  });

  it('T-1: carries the diagnosis of a stuck machine, and the VM state and failure', () => {
    const stuck = provisioning(worker('w-1'), { since: minutesAfterCreation(10) });
    const v = machineView(stuck.machine, stuck.dcsMachine, NOW);
    expect(v).toMatchObject({ phase: 'Provisioning', ready: false, vmState: 'creating' });
    expect(v.diagnosis?.code).toBe('placement-stall');
    const failed = worker('w-2', { entry: 2 });
    failed.dcsMachine.status = {
      ...failed.dcsMachine.status,
      vmState: 'failed',
      failureReason: 'CreateError',
      failureMessage: 'no host',
    };
    expect(machineView(failed.machine, failed.dcsMachine, NOW)).toMatchObject({
      vmState: 'failed',
      failureReason: 'CreateError',
      failureMessage: 'no host',
      diagnosis: { code: 'vm-failed' },
    });
  });
});

describe('machine readiness', () => {
  it('is Ready only when Running with a node whose Ready and NodeHealthy are True', () => {
    const { machine } = worker('w-1', { entry: 1 });
    expect(isMachineReady(machine)).toBe(true);
    const nh = machine.status?.conditions?.find((c) => c.type === 'NodeHealthy');
    if (nh) nh.status = 'Unknown';
    expect(isMachineReady(machine)).toBe(false);
    expect(isMachineReady(provisioning(worker('w-2')).machine)).toBe(false);
  });

  it('counts as available after minReadySeconds of readiness', () => {
    const { machine } = worker('w-1', { entry: 1 });
    const ready = machine.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready) ready.lastTransitionTime = minutesAfterCreation(59);
    expect(isMachineAvailable(machine, 0, NOW)).toBe(true);
    expect(isMachineAvailable(machine, 30, NOW)).toBe(true);
    expect(isMachineAvailable(machine, 120, NOW)).toBe(false);
  });
});
