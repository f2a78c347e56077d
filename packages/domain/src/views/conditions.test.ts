import { describe, expect, it } from 'vitest';
import type { Condition } from '../schemas/meta';
import { conditionView, conditionViews, isProblemCondition } from './conditions';

const t = '2026-01-01T00:00:00Z';

describe('condition views', () => {
  it('U-6: shows type, status, severity, reason, message and last transition time', () => {
    expect(
      conditionView({
        type: 'Ready',
        status: 'False',
        severity: 'Warning',
        reason: 'WaitingForAvailableMachines',
        message: 'Minimum availability requires 3 replicas, current 2 available',
        lastTransitionTime: t,
      }),
    ).toEqual({
      type: 'Ready',
      status: 'False',
      severity: 'Warning',
      reason: 'WaitingForAvailableMachines',
      message: 'Minimum availability requires 3 replicas, current 2 available',
      lastTransitionTime: t,
      problem: true,
    });
  });

  it('U-6: a problem is False with severity Error or Warning, or Unknown', () => {
    expect(isProblemCondition({ status: 'False', severity: 'Error' })).toBe(true);
    expect(isProblemCondition({ status: 'False', severity: 'Warning' })).toBe(true);
    expect(isProblemCondition({ status: 'Unknown' })).toBe(true);
    expect(isProblemCondition({ status: 'False', severity: 'Info' })).toBe(false);
    expect(isProblemCondition({ status: 'True' })).toBe(false);
    // Cluster API always sets a severity on False; without one, nothing says it is harmless.
    expect(isProblemCondition({ status: 'False' })).toBe(true);
    expect(isProblemCondition({ status: 'False', severity: '' })).toBe(true);
  });

  it('U-6: sorts problems first (Error, Warning, Unknown), then Ready, then by type', () => {
    const conditions: Condition[] = [
      { type: 'BootstrapReady', status: 'True' },
      { type: 'Ready', status: 'True' },
      { type: 'NodeHealthy', status: 'Unknown' },
      { type: 'InfrastructureReady', status: 'False', severity: 'Info' },
      { type: 'DrainingSucceeded', status: 'False', severity: 'Warning' },
      { type: 'MachinesReady', status: 'False', severity: 'Error' },
    ];
    expect(conditionViews(conditions).map((c) => c.type)).toEqual([
      'MachinesReady',
      'DrainingSucceeded',
      'NodeHealthy',
      'Ready',
      'BootstrapReady',
      'InfrastructureReady',
    ]);
    expect(conditionViews(undefined)).toEqual([]);
  });

  it('leaves out what the condition does not carry (small JSON)', () => {
    expect(JSON.stringify(conditionView({ type: 'Ready', status: 'True', severity: '' }))).toBe(
      '{"type":"Ready","status":"True","problem":false}',
    );
  });
});
