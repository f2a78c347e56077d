import { describe, expect, it } from 'vitest';
import { aMachineDeployment, aValidationContext } from '../testing';
import { canExecute } from './plan';
import { planScale } from './scale';

const plan = () =>
  planScale(
    { replicas: 2, resourceVersion: '1' },
    { machineDeployment: aMachineDeployment({ metadata: { resourceVersion: '1' } }) },
    aValidationContext(),
  );

describe('canExecute and the API server’s dry-run verdict', () => {
  it('a plan with a step the server refused in its dry run cannot be applied', () => {
    const p = plan();
    expect(canExecute(p)).toBe(true);
    const refused = {
      index: 0,
      status: 'refused' as const,
      sequence: 'in-order' as const,
      issues: [],
    };
    expect(canExecute({ ...p, verdict: { ok: false, steps: [refused] } })).toBe(false);
  });

  it('steps accepted, or judged only at Apply, do not block it', () => {
    const p = plan();
    const steps = [
      { index: 0, status: 'unjudged' as const, sequence: 'alone' as const, after: [0], issues: [] },
    ];
    expect(canExecute({ ...p, verdict: { ok: true, steps } })).toBe(true);
  });
});
