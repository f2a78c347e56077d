import { describe, expect, it } from 'vitest';
import {
  diagnoseMachine,
  diagnosisDueAt,
  EARLY_FAILURE_CHECKLIST,
  PLACEMENT_STALL_CHECKLIST,
  REASON_NO_FREE_POOL_ENTRY,
} from './diagnosis';
import { controlPlaneMachine, minutesAfterCreation, NOW, provisioning, worker } from './fixtures';
import { formatViewMessage } from './messages';

const fiftyMinutesAgo = minutesAfterCreation(10); // NOW is creation + 60 min
const fiveMinutesAgo = minutesAfterCreation(55);

describe('diagnoseMachine', () => {
  it('T-1: Provisioning with cdRomFile set and the VM still creating past the threshold is a placement stall', () => {
    const { machine, dcsMachine } = provisioning(worker('w-1', { entry: 1 }), {
      since: fiftyMinutesAgo,
    });
    const d = diagnoseMachine(machine, dcsMachine, NOW);
    expect(d).toMatchObject({
      code: 'placement-stall',
      rule: 'T-1',
      severity: 'warning',
      messageKey: 'view.diagnosis.placementStall',
      params: { machine: 'w-1', since: '2026-01-01T00:10:00.000Z' },
      since: '2026-01-01T00:10:00.000Z',
    });
    expect(d?.checklist).toEqual(PLACEMENT_STALL_CHECKLIST);
    // The checklist of T-1: datastore space, host use and overcommit, rebalance, escalate.
    expect(d?.checklist).toEqual(
      expect.arrayContaining([
        'view.check.datastoreFreeSpace',
        'view.check.hostUtilization',
        'view.check.rebalanceHost',
        'view.check.escalateDeadlock',
      ]),
    );
    expect(d?.message).toContain('placement stall on the DCS platform');
    expect(d?.message).toBe(formatViewMessage('view.diagnosis.placementStall', d?.params));
  });

  it('T-1: the same for a control-plane machine', () => {
    const { machine, dcsMachine } = provisioning(controlPlaneMachine('demo-cp-1'), {
      since: fiftyMinutesAgo,
    });
    expect(diagnoseMachine(machine, dcsMachine, NOW)?.code).toBe('placement-stall');
  });

  it('T-1: without cdRomFile past the threshold the fault is earlier (credentials or ISO upload)', () => {
    const { machine, dcsMachine } = provisioning(worker('w-1'), {
      since: fiftyMinutesAgo,
      cdRomFile: false,
    });
    const d = diagnoseMachine(machine, dcsMachine, NOW);
    expect(d).toMatchObject({ code: 'early-failure', rule: 'T-1', severity: 'error' });
    expect(d?.checklist).toEqual(EARLY_FAILURE_CHECKLIST);
    expect(d?.message).toMatch(/DCS credentials or the bootstrap ISO upload/);
  });

  it('T-1: without any DCSMachine past the threshold, also an early failure', () => {
    const { machine } = provisioning(worker('w-1'), { since: fiftyMinutesAgo });
    expect(diagnoseMachine(machine, undefined, NOW)?.code).toBe('early-failure');
  });

  it('T-1: not stuck yet below the threshold, with or without cdRomFile', () => {
    const a = provisioning(worker('w-1'), { since: fiveMinutesAgo });
    const b = provisioning(worker('w-2'), { since: fiveMinutesAgo, cdRomFile: false });
    expect(diagnoseMachine(a.machine, a.dcsMachine, NOW)).toBeUndefined();
    expect(diagnoseMachine(b.machine, b.dcsMachine, NOW)).toBeUndefined();
  });

  it('T-1: the threshold is a parameter', () => {
    const { machine, dcsMachine } = provisioning(worker('w-1'), { since: fiveMinutesAgo });
    expect(diagnoseMachine(machine, dcsMachine, NOW, { stuckAfterMs: 60_000 })?.code).toBe(
      'placement-stall',
    );
    const old = provisioning(worker('w-2'), { since: fiftyMinutesAgo });
    expect(
      diagnoseMachine(old.machine, old.dcsMachine, NOW, { stuckAfterMs: 3_600_000 }),
    ).toBeUndefined();
  });

  it('T-1: the clock starts at the latest of the phase change and the DCSMachine creation', () => {
    const { machine, dcsMachine } = provisioning(worker('w-1'), { since: fiftyMinutesAgo });
    dcsMachine.metadata.creationTimestamp = fiveMinutesAgo;
    expect(diagnoseMachine(machine, dcsMachine, NOW)).toBeUndefined();
  });

  it('T-1: a VM that left "creating" is no placement stall', () => {
    const { machine, dcsMachine } = provisioning(worker('w-1'), {
      since: fiftyMinutesAgo,
      vmState: 'running',
    });
    expect(diagnoseMachine(machine, dcsMachine, NOW)).toBeUndefined();
  });

  it('R-POOL-1: a DCSMachine condition saying no pool entry is free means waiting for an IP, at once', () => {
    const { machine, dcsMachine } = provisioning(worker('w-1'), {
      since: fiveMinutesAgo,
      cdRomFile: false,
    });
    dcsMachine.status = {
      ...dcsMachine.status,
      conditions: [
        {
          type: 'IpHostnameAllocated',
          status: 'False',
          severity: 'Warning',
          reason: REASON_NO_FREE_POOL_ENTRY,
          lastTransitionTime: fiveMinutesAgo,
        },
      ],
    };
    const d = diagnoseMachine(machine, dcsMachine, NOW);
    expect(d).toMatchObject({
      code: 'waiting-for-ip',
      rule: 'R-POOL-1',
      severity: 'error',
      params: { machine: 'w-1', pool: 'demo-worker-pool' },
    });
    expect(d?.checklist).toContain('view.check.extendIpPool');
  });

  it("R-POOL-1: the Machine's InfrastructureReady mirroring that reason says the same", () => {
    const { machine, dcsMachine } = provisioning(worker('w-1'), { since: fiveMinutesAgo });
    const infra = machine.status?.conditions?.find((c) => c.type === 'InfrastructureReady');
    if (infra) infra.reason = REASON_NO_FREE_POOL_ENTRY;
    expect(diagnoseMachine(machine, dcsMachine, NOW)?.code).toBe('waiting-for-ip');
  });

  it('R-POOL-1: no entry claimed while none is free, past the threshold, is waiting for an IP', () => {
    const { machine, dcsMachine } = provisioning(worker('w-1'), {
      since: fiftyMinutesAgo,
      cdRomFile: false,
    });
    expect(diagnoseMachine(machine, dcsMachine, NOW, { ipPoolFree: 0 })?.code).toBe(
      'waiting-for-ip',
    );
    expect(diagnoseMachine(machine, dcsMachine, NOW, { ipPoolFree: 1 })?.code).toBe(
      'early-failure',
    );
    const young = provisioning(worker('w-2'), { since: fiveMinutesAgo, cdRomFile: false });
    expect(
      diagnoseMachine(young.machine, young.dcsMachine, NOW, { ipPoolFree: 0 }),
    ).toBeUndefined();
  });

  it('reports a failed VM at once, with its reason and message', () => {
    const { machine, dcsMachine } = provisioning(worker('w-1'), { since: fiveMinutesAgo });
    dcsMachine.status = {
      ...dcsMachine.status,
      vmState: 'failed',
      failureReason: 'CreateError',
      failureMessage: 'datastore ds-1 is full',
    };
    const d = diagnoseMachine(machine, dcsMachine, NOW);
    expect(d).toMatchObject({
      code: 'vm-failed',
      severity: 'error',
      params: { machine: 'w-1', reason: 'CreateError', message: 'datastore ds-1 is full' },
    });
    expect(d?.message).toBe('Machine w-1 failed: CreateError: datastore ds-1 is full');
  });

  it("reports a Machine's own failure (phase Failed)", () => {
    const { machine, dcsMachine } = worker('w-1', { entry: 1 });
    machine.status = { ...machine.status, phase: 'Failed' };
    expect(diagnoseMachine(machine, dcsMachine, NOW)).toMatchObject({
      code: 'vm-failed',
      params: { reason: 'Failed', message: '—' },
    });
  });

  it('node-not-healthy: Provisioned whose node stays unhealthy past the threshold', () => {
    const { machine, dcsMachine } = provisioning(worker('w-1'), {
      since: fiftyMinutesAgo,
      vmState: 'running',
    });
    if (machine.status) machine.status.phase = 'Provisioned';
    const d = diagnoseMachine(machine, dcsMachine, NOW);
    expect(d).toMatchObject({
      code: 'node-not-healthy',
      severity: 'error',
      params: { machine: 'w-1', reason: 'WaitingForNodeRef' },
    });
    expect(d?.checklist).toContain('view.check.magicTokens');
  });

  it('node-not-healthy: a Running node that went unhealthy is a warning, and only once overdue', () => {
    const { machine, dcsMachine } = worker('w-1', { entry: 1 });
    const nh = machine.status?.conditions?.find((c) => c.type === 'NodeHealthy');
    if (!nh) throw new Error('builder has NodeHealthy');
    Object.assign(nh, {
      status: 'False',
      severity: 'Warning',
      reason: 'NodeConditionsFailed',
      lastTransitionTime: fiftyMinutesAgo,
    });
    expect(diagnoseMachine(machine, dcsMachine, NOW)).toMatchObject({
      code: 'node-not-healthy',
      severity: 'warning',
      params: { reason: 'NodeConditionsFailed' },
    });
    nh.lastTransitionTime = fiveMinutesAgo;
    expect(diagnoseMachine(machine, dcsMachine, NOW)).toBeUndefined();
  });

  it('a healthy machine, and a machine being deleted, have no diagnosis', () => {
    const { machine, dcsMachine } = worker('w-1', { entry: 1 });
    expect(diagnoseMachine(machine, dcsMachine, NOW)).toBeUndefined();
    const stuck = provisioning(worker('w-2'), { since: fiftyMinutesAgo });
    stuck.machine.metadata.deletionTimestamp = fiveMinutesAgo;
    expect(diagnoseMachine(stuck.machine, stuck.dcsMachine, NOW)).toBeUndefined();
  });
});

describe('diagnosisDueAt', () => {
  it('T-1: says when a provisioning machine will cross the threshold', () => {
    const { machine, dcsMachine } = provisioning(worker('w-1'), { since: fiveMinutesAgo });
    expect(diagnosisDueAt(machine, dcsMachine, NOW)).toBe(Date.parse(fiveMinutesAgo) + 600_000);
    const old = provisioning(worker('w-2'), { since: fiftyMinutesAgo });
    expect(diagnosisDueAt(old.machine, old.dcsMachine, NOW)).toBeUndefined();
    const healthy = worker('w-3', { entry: 3 });
    expect(diagnosisDueAt(healthy.machine, healthy.dcsMachine, NOW)).toBeUndefined();
  });
});
