import { describe, expect, it } from 'vitest';
import { kindTable } from './kinds';
import { RIGHT_NAMES, RIGHTS, rightNeeds } from './rights';
import { RightsSchema } from './rights-schema';

describe('rights', () => {
  it('need only verbs on kinds of the kinds table', () => {
    for (const name of RIGHT_NAMES)
      for (const [, kind] of RIGHTS[name]) expect(kindTable[kind]).toBeDefined();
  });

  it('say what a right needs as a person reads it', () => {
    expect(rightNeeds('deleteMachines')).toBe('patch Machine, patch MachineDeployment');
  });

  it('accept every right allowed, or refused with the reviews that said no', () => {
    const all = Object.fromEntries(RIGHT_NAMES.map((n) => [n, { allowed: true }]));
    expect(RightsSchema.safeParse(all).success).toBe(true);
    const refused = {
      ...all,
      scale: {
        allowed: false,
        denied: [
          {
            verb: 'patch',
            kind: 'MachineDeployment',
            group: 'cluster.x-k8s.io',
            resource: 'machinedeployments',
            namespace: 'cpaas-system',
          },
        ],
      },
    };
    expect(RightsSchema.safeParse(refused).success).toBe(true);
  });

  it('reject a refusal that names no review, an unknown verb, a missing right', () => {
    const all = Object.fromEntries(RIGHT_NAMES.map((n) => [n, { allowed: true }]));
    expect(RightsSchema.safeParse({ ...all, scale: { allowed: false, denied: [] } }).success).toBe(
      false,
    );
    const badVerb = { verb: 'explode', kind: 'X', group: '', resource: 'x', namespace: 'n' };
    expect(
      RightsSchema.safeParse({ ...all, scale: { allowed: false, denied: [badVerb] } }).success,
    ).toBe(false);
    const { scale: _scale, ...missing } = all;
    expect(RightsSchema.safeParse(missing).success).toBe(false);
  });
});
