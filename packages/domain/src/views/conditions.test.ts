import { describe, expect, it } from 'vitest';
import type { Condition, V1Beta2Condition } from '../schemas/meta';
import {
  conditionAnchor,
  conditionGroup,
  conditionTone,
  conditionView,
  conditionViews,
  isProblemCondition,
  parseConditionAnchor,
  sortConditionGroups,
  v1beta2ConditionViews,
} from './conditions';

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

  it('U-6: sorts problems first (Error, Warning, Unknown), then False/Info, then Ready, then by type', () => {
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
      // Not a problem, but not healthy either: never among the True ones.
      'InfrastructureReady',
      'Ready',
      'BootstrapReady',
    ]);
    expect(conditionViews(undefined)).toEqual([]);
  });

  it('leaves out what the condition does not carry (small JSON)', () => {
    expect(JSON.stringify(conditionView({ type: 'Ready', status: 'True', severity: '' }))).toBe(
      '{"type":"Ready","status":"True","problem":false}',
    );
  });

  it('U-6: a False condition of severity Info is not shown as healthy (its own tone)', () => {
    const tone = (c: Condition) => conditionTone(conditionView(c));
    expect(tone({ type: 'Ready', status: 'True' })).toBe('ok');
    expect(tone({ type: 'InfrastructureReady', status: 'False', severity: 'Info' })).toBe('info');
    expect(tone({ type: 'Ready', status: 'False', severity: 'Warning' })).toBe('warning');
    expect(tone({ type: 'Ready', status: 'False', severity: 'Error' })).toBe('error');
    expect(tone({ type: 'Ready', status: 'False' })).toBe('warning');
    expect(tone({ type: 'Ready', status: 'Unknown' })).toBe('unknown');
  });

  it('groups of conditions: problems first (most first), then those with False/Info, then healthy', () => {
    const v = (cs: Condition[]) => conditionViews(cs);
    const groups = [
      conditionGroup('Cluster', 'demo', v([{ type: 'Ready', status: 'True' }])),
      conditionGroup(
        'DCSMachine',
        'vm-1',
        v([{ type: 'VMProvisioned', status: 'False', severity: 'Info', reason: 'Cloning' }]),
      ),
      conditionGroup('MachineSet', 'ms-1', v([{ type: 'Ready', status: 'Unknown' }])),
      conditionGroup(
        'Machine',
        'm-1',
        v([
          { type: 'Ready', status: 'False', severity: 'Error' },
          { type: 'NodeHealthy', status: 'Unknown' },
        ]),
      ),
    ];
    expect(sortConditionGroups(groups).map((g) => [g.kind, g.problems])).toEqual([
      ['Machine', 2],
      ['MachineSet', 1],
      ['DCSMachine', 0],
      ['Cluster', 0],
    ]);
  });

  it('a deep link names one condition of one object, and only that', () => {
    const a = conditionAnchor('DCSIpHostnamePool', 'dev-west-full-pool', 'Ready');
    expect(a).toBe('DCSIpHostnamePool/dev-west-full-pool/Ready');
    expect(parseConditionAnchor(a)).toEqual({
      kind: 'DCSIpHostnamePool',
      name: 'dev-west-full-pool',
      type: 'Ready',
    });
    for (const bad of ['', 'Machine/m-1', 'Machine//Ready', 'a/b/c/d']) {
      expect(parseConditionAnchor(bad)).toBeUndefined();
    }
  });
});

describe('Cluster API v1beta2 condition views (issue 23)', () => {
  const md = (generation: number, conditions: V1Beta2Condition[]) => ({
    metadata: { generation },
    status: { v1beta2: { conditions } },
  });

  it('a condition written for an older generation is stale; one for the current is not', () => {
    const views = v1beta2ConditionViews(
      md(3, [
        { type: 'Available', status: 'True', reason: 'Available', observedGeneration: 2 },
        { type: 'UpToDate', status: 'True', reason: 'UpToDate', observedGeneration: 3 },
        { type: 'Ready', status: 'True', reason: 'Ready' },
      ]),
    );
    const byType = Object.fromEntries((views ?? []).map((v) => [v.type, v]));
    expect(byType.Available).toMatchObject({ stale: true, observedGeneration: 2 });
    expect(byType.UpToDate?.stale).toBeUndefined();
    // No observedGeneration: nothing says it is stale.
    expect(byType.Ready?.stale).toBeUndefined();
  });

  it('a health type False or any Unknown is a problem; an in-progress type True is information', () => {
    const views =
      v1beta2ConditionViews(
        md(1, [
          {
            type: 'ScalingUp',
            status: 'True',
            reason: 'ScalingUp',
            message: 'Scaling up from 1 to 3 replicas',
          },
          {
            type: 'Available',
            status: 'False',
            reason: 'NotAvailable',
            message: '0 available replicas, at least 1 required',
          },
          { type: 'Deleting', status: 'False', reason: 'NotDeleting' },
          { type: 'NodeHealthy', status: 'Unknown', reason: 'NodeHealthyUnknown' },
          { type: 'Ready', status: 'True', reason: 'Ready' },
        ]),
      ) ?? [];
    const tone = Object.fromEntries(views.map((v) => [v.type, [v.problem, conditionTone(v)]]));
    expect(tone).toEqual({
      Available: [true, 'warning'],
      NodeHealthy: [true, 'unknown'],
      ScalingUp: [false, 'info'],
      Deleting: [false, 'ok'],
      Ready: [false, 'ok'],
    });
    // v1beta2 has no severity, and the view makes none up.
    expect(views.map((v) => v.severity)).toEqual(views.map(() => undefined));
    // Problems first, then the step in progress, then the healthy ones (Ready first).
    expect(views.map((v) => v.type)).toEqual([
      'Available',
      'NodeHealthy',
      'ScalingUp',
      'Ready',
      'Deleting',
    ]);
  });

  it('an object without v1beta2 conditions has none to show: undefined, not an empty list', () => {
    expect(v1beta2ConditionViews({ metadata: {}, status: {} })).toBeUndefined();
    expect(v1beta2ConditionViews(md(1, []))).toEqual([]);
  });
});
