import { planScale } from '@dcs/domain';
import { aMachineDeployment, aValidationContext } from '@dcs/domain/testing';
import { describe, expect, it } from 'vitest';
import { mismatches } from './support/written';

/** The comparison behind "the plan equals what Apply writes" (operations.test.ts) can fail. */
describe('mismatches between a plan and what the server holds', () => {
  const md = aMachineDeployment({ metadata: { resourceVersion: '7' } });
  const plan = planScale(
    { replicas: 2, resourceVersion: '7' },
    { machineDeployment: md },
    aValidationContext(),
  );
  const key = 'MachineDeployment/demo-md-0';
  const asWritten = (replicas: number) =>
    new Map([[key, { ...md, spec: { ...md.spec, replicas } }]]);

  it('none when the server holds the planned fields', () => {
    expect(plan.diffs).toHaveLength(1);
    expect(mismatches(plan, asWritten(2))).toEqual([]);
  });

  it('names the field that differs, and an object that is missing', () => {
    expect(mismatches(plan, asWritten(3))).toEqual([`${key} /spec/replicas: planned 2, read 3`]);
    expect(mismatches(plan, new Map())).toEqual([`${key}: not found`]);
  });
});
