import { describe, expect, it } from 'vitest';
import { aConflictError } from '../test/api';
import { ApiError } from './api-client';
import { conflictOf } from './conflict';

describe('conflictOf', () => {
  it('R-POOL-4: reads base, theirs, yours and the fields both changed from the BFF’s 409', () => {
    const e = aConflictError();
    expect(conflictOf(e)).toEqual({
      reason: e.details[0],
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
