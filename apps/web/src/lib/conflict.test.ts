import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { conflictOf } from './conflict';

const stale = {
  rule: 'R-PLAN-STALE' as const,
  path: 'resourceVersion',
  severity: 'error' as const,
  messageKey: 'bff.conflict',
  params: { kind: 'MachineDeployment', name: 'demo-md-0', seen: '10', current: '11' },
  message: 'MachineDeployment demo-md-0 was changed by someone else',
};

describe('conflictOf', () => {
  it('R-POOL-4: reads base, theirs, yours and the fields both changed from the BFF’s 409', () => {
    const body = {
      code: 'Conflict',
      message: stale.message,
      details: [stale],
      conflict: {
        kind: 'MachineDeployment',
        name: 'demo-md-0',
        base: { spec: { replicas: 4 } },
        theirs: { spec: { replicas: 5 } },
        yours: { spec: { replicas: 6 } },
        fields: ['/spec/replicas'],
      },
    };
    const c = conflictOf(new ApiError(409, 'Conflict', stale.message, [stale], body));
    expect(c).toEqual({
      reason: stale,
      base: { spec: { replicas: 4 } },
      theirs: { spec: { replicas: 5 } },
      yours: { spec: { replicas: 6 } },
      fields: ['/spec/replicas'],
    });
  });

  it('keeps only the message of a 409 that carries nothing more', () => {
    const c = conflictOf(
      new ApiError(409, 'Conflict', 'changed', [], { conflict: { base: null } }),
    );
    expect(c).toEqual({ reason: { messageKey: 'Conflict', params: {}, message: 'changed' } });
  });
});
